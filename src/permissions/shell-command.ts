/**
 * Splits a shell command into the simple commands it runs, so that a permission rule like
 * `Bash(git *)` is checked against each of them: `git status && rm -rf x` is two commands, and the
 * second is not git. Separators are `;`, `&&`, `||`, `|`, `|&`, `&`, newlines and subshell parens.
 *
 * This is a scanner, not a shell: it understands quoting, escapes and comments, and gives up (marks
 * the command `unsafe`) wherever a static reading cannot know what runs — command and process
 * substitution, unbalanced quotes — or where a command writes somewhere no rule names (output
 * redirected to a file). An unsafe command can still be denied by a rule matching any part, but no
 * allow rule covers it.
 */

export interface SplitCommand {
  /** The simple commands, trimmed, in order; commands inside substitutions are included. */
  parts: string[];
  /** Why no allow rule may cover this command, when a static reading cannot be trusted. */
  unsafe?: string;
}

/** The one file an output redirection may name and still write nothing. */
const DEV_NULL = "/dev/null";

export function splitShellCommand(command: string): SplitCommand {
  const scanner = new Scanner(command);
  scanner.run();
  const parts = scanner.parts.map((part) => part.trim()).filter((part) => part !== "");
  return scanner.unsafe === undefined ? { parts } : { parts, unsafe: scanner.unsafe };
}

class Scanner {
  readonly parts: string[] = [];
  unsafe: string | undefined;
  #current = "";
  #at = 0;

  constructor(private readonly text: string) {}

  run(): void {
    const text = this.text;
    while (this.#at < text.length) {
      const char = text[this.#at] ?? "";
      const next = text[this.#at + 1] ?? "";
      if (char === "\\") {
        // A backslash-newline joins lines; any other escaped character is literal.
        if (next !== "\n") this.#current += char + next;
        this.#at += 2;
      } else if (char === "'") {
        this.#quoted("'");
      } else if (char === '"') {
        this.#quoted('"');
      } else if (char === "#" && this.#atWordStart()) {
        while (this.#at < text.length && text[this.#at] !== "\n") this.#at++;
      } else if ((char === "$" || char === "<" || char === ">") && next === "(") {
        this.#substitution(char === "$" ? "a command substitution $(...)" : `a process substitution ${char}(...)`);
      } else if (char === "`") {
        this.#backticks();
      } else if (char === ">") {
        this.#checkRedirect();
        this.#current += char;
        this.#at++;
      } else if (this.#isSeparator(char, next)) {
        this.#flush();
        this.#at += (char === "&" && next === "&") || (char === "|" && (next === "|" || next === "&")) ? 2 : 1;
      } else {
        this.#current += char;
        this.#at++;
      }
    }
    this.#flush();
  }

  #isSeparator(char: string, next: string): boolean {
    if (char === ";" || char === "\n" || char === "|" || char === "(" || char === ")") return true;
    if (char !== "&") return false;
    // `2>&1` and `<&3` duplicate descriptors and `&>` redirects: none of them separate commands.
    const previous = this.text[this.#at - 1];
    return previous !== ">" && previous !== "<" && next !== ">";
  }

  #atWordStart(): boolean {
    const previous = this.text[this.#at - 1];
    return previous === undefined || /[\s;&|()]/.test(previous);
  }

  /** Copies a quoted string; inside double quotes, substitutions still run. */
  #quoted(quote: "'" | '"'): void {
    const text = this.text;
    this.#current += quote;
    this.#at++;
    while (this.#at < text.length) {
      const char = text[this.#at] ?? "";
      if (char === quote) {
        this.#current += char;
        this.#at++;
        return;
      }
      if (quote === '"' && char === "\\") {
        this.#current += text.slice(this.#at, this.#at + 2);
        this.#at += 2;
      } else if (quote === '"' && char === "$" && text[this.#at + 1] === "(") {
        this.#substitution("a command substitution $(...)");
      } else if (quote === '"' && char === "`") {
        this.#backticks();
      } else {
        this.#current += char;
        this.#at++;
      }
    }
    this.#markUnsafe("unbalanced quotes");
  }

  /** `$(...)`, `<(...)`, `>(...)`: the inner commands become parts of their own. */
  #substitution(kind: string): void {
    const text = this.text;
    const start = this.#at;
    let depth = 0;
    let quote: string | undefined;
    let end = -1;
    for (let index = start + 1; index < text.length; index++) {
      const char = text[index];
      if (quote) {
        if (char === "\\" && quote === '"') index++;
        else if (char === quote) quote = undefined;
      } else if (char === "\\") index++;
      else if (char === "'" || char === '"') quote = char;
      else if (char === "(") depth++;
      else if (char === ")" && --depth === 0) {
        end = index;
        break;
      }
    }
    this.#markUnsafe(kind);
    if (end === -1) this.#markUnsafe("an unclosed substitution");
    const close = end === -1 ? text.length : end;
    this.parts.push(...splitShellCommand(text.slice(start + 2, close)).parts);
    this.#current += text.slice(start, close + 1);
    this.#at = close + 1;
  }

  #backticks(): void {
    const text = this.text;
    let end = this.#at + 1;
    while (end < text.length && text[end] !== "`") end += text[end] === "\\" ? 2 : 1;
    this.#markUnsafe("a command substitution `...`");
    if (end >= text.length) this.#markUnsafe("an unclosed substitution");
    this.parts.push(...splitShellCommand(text.slice(this.#at + 1, end)).parts);
    this.#current += text.slice(this.#at, end + 1);
    this.#at = end + 1;
  }

  /** At a `>`: an output redirection to anything but a descriptor or /dev/null writes a file. */
  #checkRedirect(): void {
    const rest = this.text.slice(this.#at + 1);
    // `>&2` duplicates a descriptor; `>& file` (no digit) sends both streams to a file.
    if (/^&([0-9]+-?|-)/.test(rest)) return;
    const target = /^[>|&]?\s*([^\s;&|()<>]*)/.exec(rest)?.[1] ?? "";
    if (target !== DEV_NULL) this.#markUnsafe("an output redirection to a file");
  }

  #markUnsafe(reason: string): void {
    this.unsafe ??= reason;
  }

  #flush(): void {
    this.parts.push(this.#current);
    this.#current = "";
  }
}
