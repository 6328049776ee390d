/** capResult: the total text is capped, images pass, and the model is told what it did not see. */
import { describe, expect, test } from "bun:test";
import { capResult, errorResult, resultText, textResult, type ToolResult } from "../../src/tool/result.ts";

describe("capResult", () => {
  test("a result within the cap is returned unchanged", () => {
    const result = textResult("short", { n: 1 });
    expect(capResult(result, 5)).toBe(result);
  });

  test("text over the cap is cut, with a note naming both sizes", () => {
    expect(capResult(textResult("abcdefghij"), 4)).toEqual({
      content: [
        { type: "text", text: "abcd" },
        {
          type: "text",
          text: "\n[toolpool: output truncated — showing 4 of 10 characters. Ask for a narrower range or a filtered result to see the rest.]",
        },
      ],
      isError: false,
    });
  });

  test("the budget spans blocks; images and later references survive; isError and structured content are kept", () => {
    const result: ToolResult = {
      content: [
        { type: "text", text: "12345" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "67890" },
        { type: "text", text: "dropped" },
        { type: "tool_reference", tool_name: "Read" },
      ],
      isError: true,
      structuredContent: { kept: true },
    };
    const capped = capResult(result, 7);
    expect(capped.content.slice(0, 4)).toEqual([
      { type: "text", text: "12345" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "67" },
      { type: "tool_reference", tool_name: "Read" },
    ]);
    expect(resultText(capped)).toContain("showing 7 of 17 characters");
    expect([capped.isError, capped.structuredContent]).toEqual([true, { kept: true }]);
  });

  test("large numbers are written with separators", () => {
    expect(resultText(capResult(textResult("x".repeat(150_000)), 100_000))).toContain("showing 100,000 of 150,000 characters");
  });
});

describe("result helpers", () => {
  test("textResult, errorResult and resultText", () => {
    expect(textResult("ok")).toEqual({ content: [{ type: "text", text: "ok" }], isError: false });
    expect(errorResult("no")).toEqual({ content: [{ type: "text", text: "no" }], isError: true });
    expect(resultText({ content: [{ type: "text", text: "a" }, { type: "tool_reference", tool_name: "X" }, { type: "text", text: "b" }], isError: false })).toBe("ab");
  });
});
