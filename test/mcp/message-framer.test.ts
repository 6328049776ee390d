import { describe, expect, test } from "bun:test";
import { MessageFramer } from "../../src/mcp/message-framer.ts";

function collect(maxLineBytes: number) {
  const lines: string[] = [];
  const oversized: [number, string | number | undefined][] = [];
  const framer = new MessageFramer(maxLineBytes, { line: (line) => lines.push(line), oversized: (bytes, id) => oversized.push([bytes, id]) });
  const push = (text: string) => framer.push(new TextEncoder().encode(text));
  return { lines, oversized, push };
}

describe("MessageFramer", () => {
  test("lines split across chunks, several per chunk, blank lines skipped", () => {
    const { lines, push } = collect(1024);
    push('{"a":');
    push('1}\n{"b":2}\n\n{"c"');
    push(":3}\r\n");
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}\r']);
  });

  test("an oversized line is skipped, its response id recovered from the tail, and the stream stays in step", () => {
    const { lines, oversized, push } = collect(64);
    const line = `{"result":{"content":[{"type":"text","text":"${"x".repeat(150)}"}]},"jsonrpc":"2.0","id":42}`;
    push(line.slice(0, 60));
    push(`${line.slice(60)}\n{"ok":true}\n`);
    expect(oversized).toEqual([[line.length, 42]]);
    expect(lines).toEqual(['{"ok":true}']);
  });

  test("the id at the head of a line is found too, and a string id stays a string", () => {
    const { oversized, push } = collect(32);
    push(`{"jsonrpc":"2.0","id":"req-7","result":{"text":"${"z".repeat(100)}"}}\n`);
    push(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${"z".repeat(100)}"}}\n`);
    expect(oversized.map(([, id]) => id)).toEqual(["req-7", undefined]);
  });

  test("a nested object's id at the end is not mistaken for the response id", () => {
    const { oversized, push } = collect(32);
    push(`{"jsonrpc":"2.0","method":"x","params":{"data":"${"z".repeat(100)}","item":{"id":5}}}\n`);
    expect(oversized.map(([, id]) => id)).toEqual([undefined]);
  });
});
