/** BoundedOutput keeps the head and the tail of a stream and counts what it drops. */
import { describe, expect, test } from "bun:test";
import { BoundedOutput, pump } from "../../src/builtin/bounded-output.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("BoundedOutput", () => {
  test("keeps everything while under the bound", () => {
    const output = new BoundedOutput(4, 4);
    output.push(bytes("abc"));
    output.push(bytes("defgh"));
    expect({ text: output.text(), truncated: output.truncated, total: output.totalBytes }).toEqual({
      text: "abcdefgh",
      truncated: false,
      total: 8,
    });
  });

  test("keeps the first and last bytes across many chunks", () => {
    const output = new BoundedOutput(3, 4);
    for (const chunk of ["ab", "cd", "ef", "gh", "ij", "k"]) output.push(bytes(chunk));
    expect({ text: output.text(), truncated: output.truncated, total: output.totalBytes }).toEqual({
      text: "abc\n[... 4 bytes of output omitted ...]\nhijk",
      truncated: true,
      total: 11,
    });
  });

  test("a single huge chunk is split between head and tail", () => {
    const output = new BoundedOutput(2, 2);
    output.push(bytes("0123456789"));
    expect(output.text()).toBe("01\n[... 6 bytes of output omitted ...]\n89");
  });

  test("pump reads a stream to its end", async () => {
    const output = new BoundedOutput(100, 100);
    const { done } = pump(new Response("streamed text").body as ReadableStream<Uint8Array>, output);
    await done;
    expect(output.text()).toBe("streamed text");
  });

  test("pump stops when asked, even if the stream never ends", async () => {
    const output = new BoundedOutput(100, 100);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes("first"));
      },
    });
    const reader = pump(stream, output);
    reader.stop();
    await reader.done;
    expect(output.text()).toBe("first");
  });
});
