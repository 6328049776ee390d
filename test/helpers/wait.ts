/**
 * The one wait of the tests: poll a condition until it holds (tests wait for conditions, never for
 * time), and fail naming what was awaited. Returns the condition's value, so a test can wait for a
 * thing and use it.
 */
export async function waitFor<T>(
  condition: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 10_000,
  /** Between polls; longer for a probe that is itself costly (spawning `ps`). */
  intervalMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}
