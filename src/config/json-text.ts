/**
 * JSON text to a value, with the line and column of the first mistake: Bun's JSON.parse says
 * "Expected '}'" and nothing about where, and a config file is fixed by the person who reads
 * the message. `comments: true` also takes JSONC (// and block comments, trailing commas), the
 * format VS Code and Cursor write. Depth is bounded so a hostile file cannot overflow the stack.
 */

export class JsonTextError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

export interface JsonTextOptions {
  comments?: boolean;
  maxDepth?: number;
}

export function parseJsonText(text: string, options: JsonTextOptions = {}): unknown {
  if (!options.comments) {
    try {
      return JSON.parse(text);
    } catch {
      // Parse again below, only to say where the mistake is.
    }
  }
  return new Reader(text, options.comments ?? false, options.maxDepth ?? 128).document();
}

class Reader {
  #at = 0;
  constructor(
    private readonly text: string,
    private readonly comments: boolean,
    private readonly maxDepth: number,
  ) {}

  document(): unknown {
    const value = this.#value(0);
    this.#space();
    if (this.#at < this.text.length) this.#fail(`unexpected ${this.#describe()} after the end of the JSON value`);
    return value;
  }

  #value(depth: number): unknown {
    if (depth > this.maxDepth) this.#fail(`nested deeper than ${this.maxDepth} levels`);
    this.#space();
    const char = this.text[this.#at];
    if (char === "{") return this.#object(depth);
    if (char === "[") return this.#array(depth);
    if (char === '"') return this.#string();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.#number();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return value;
      }
    }
    return this.#fail(char === undefined ? "the text ends where a value should be" : `unexpected ${this.#describe()} where a value should be`);
  }

  #object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.#at++;
    for (let first = true; ; first = false) {
      this.#space();
      if (this.text[this.#at] === "}" && (first || this.comments)) {
        this.#at++;
        return result;
      }
      if (this.text[this.#at] !== '"') this.#fail(`expected a quoted key${first ? " or }" : ""}, found ${this.#describe()}`);
      const key = this.#string();
      this.#space();
      if (this.text[this.#at] !== ":") this.#fail(`expected : after the key "${key}", found ${this.#describe()}`);
      this.#at++;
      // defineProperty: a "__proto__" key is data, as JSON.parse treats it, never a prototype.
      Object.defineProperty(result, key, { value: this.#value(depth + 1), enumerable: true, writable: true, configurable: true });
      this.#space();
      const next = this.text[this.#at];
      if (next === ",") this.#at++;
      else if (next === "}") {
        this.#at++;
        return result;
      } else this.#fail(`expected , or } after the value of "${key}", found ${this.#describe()}`);
    }
  }

  #array(depth: number): unknown[] {
    const result: unknown[] = [];
    this.#at++;
    for (let first = true; ; first = false) {
      this.#space();
      if (this.text[this.#at] === "]" && (first || this.comments)) {
        this.#at++;
        return result;
      }
      result.push(this.#value(depth + 1));
      this.#space();
      const next = this.text[this.#at];
      if (next === ",") this.#at++;
      else if (next === "]") {
        this.#at++;
        return result;
      } else this.#fail(`expected , or ] in the list, found ${this.#describe()}`);
    }
  }

  #string(): string {
    const start = this.#at;
    this.#at++;
    for (;;) {
      const char = this.text[this.#at];
      if (char === undefined) this.#fail("a string is not closed (missing \")", start);
      if (char === "\n") this.#fail("a string runs past the end of its line (missing \")", start);
      if (char === "\\") this.#at += 2;
      else if (char === '"') break;
      else this.#at++;
    }
    this.#at++;
    try {
      return JSON.parse(this.text.slice(start, this.#at)) as string;
    } catch {
      return this.#fail("a string has an invalid escape (\\ must be followed by \", \\, /, b, f, n, r, t or uXXXX)", start);
    }
  }

  #number(): number {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.#at, this.#at + 64));
    if (!match) this.#fail(`a number is malformed near ${this.#describe()}`);
    this.#at += match![0].length;
    return Number(match![0]);
  }

  #space(): void {
    for (;;) {
      const char = this.text[this.#at];
      if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\ufeff") this.#at++;
      else if (this.comments && this.text.startsWith("//", this.#at)) {
        const end = this.text.indexOf("\n", this.#at);
        this.#at = end === -1 ? this.text.length : end;
      } else if (this.comments && this.text.startsWith("/*", this.#at)) {
        const end = this.text.indexOf("*/", this.#at + 2);
        if (end === -1) this.#fail("a /* comment is not closed");
        this.#at = end + 2;
      } else return;
    }
  }

  #describe(): string {
    const char = this.text[this.#at];
    return char === undefined ? "the end of the text" : JSON.stringify(char);
  }

  #fail(reason: string, at: number = this.#at): never {
    const before = this.text.slice(0, Math.min(at, this.text.length));
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    throw new JsonTextError(reason, line, column);
  }
}
