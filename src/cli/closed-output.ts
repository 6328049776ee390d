/**
 * A reader that goes away (`toolpool status --watch | head -3`, `toolpool tools | less` quit early)
 * closes our stdout: the next write fails with EPIPE. A command line tool then ends quietly, as
 * one killed by SIGPIPE would, instead of printing a stack trace and writing on into nothing.
 */
export interface ClosableOutput {
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
}

export function isClosedOutputError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED";
}

/**
 * Calls `onClosed` (once) when `output` reports its reader gone; other stream errors go to
 * `onOtherError` (default: rethrown, as an unhandled 'error' event would be).
 */
export function onClosedOutput(output: ClosableOutput, onClosed: () => void, onOtherError: (error: Error) => void = (error) => {
  throw error;
}): void {
  let closed = false;
  output.on("error", (error) => {
    if (!isClosedOutputError(error)) return onOtherError(error);
    if (closed) return;
    closed = true;
    onClosed();
  });
}
