/**
 * What a Bash command runs and touches, read from its parse tree (tree-sitter-bash). Every node of
 * the tree is visited; each kind is either understood here or makes the command opaque:
 *
 * - `commands`: every simple command, wherever it sits (lists, pipelines, subshells, `{ }`, if /
 *   while / for / case bodies, function bodies, `$(...)`, `` `...` ``, `<(...)`, `>(...)`, heredoc
 *   bodies, `bash -c 'SCRIPT'` and `eval 'SCRIPT'` with a static script), as a rule reads it;
 * - `reads` / `writes`: the paths its arguments and redirects name, absolute, holes where unknown;
 * - `unsafe`: why no allow rule may cover it (it writes a file through a redirect, defines a function);
 * - `opaque`: why the reading cannot be complete (a syntax error, a command name known only at run
 *   time, `source`, arithmetic on variables, a construct not understood). Deny rules cannot be shown
 *   not to match an opaque command, so the rules treat it as matching every deny rule.
 */
import { baseName, COMMAND_STRING_RUNNERS, commandPaths, commandReadings, DIRECTORY_CHANGERS, HIDDEN_RUNNERS, isShell, isShellScriptOption, MAX_WRAPPER_STARTS } from "./shell-commands.ts";
import { commandStringOption } from "./command-string-options.ts";
import { isDescriptorTarget, redirectEffect, throughWritten, type WorkingDirectory, type WrittenPath } from "./shell-paths.ts";
import { CODE_VARIABLES, DECLARATIONS, declarationHazard, EVALUATING_BUILTINS, heredocHazard, isQuotedHeredoc, LINK_MAKERS, MISREAD, movesOutputDescriptor, OUTPUT_DEVICE, STANDARD_INPUT, variableHazard } from "./shell-hazards.ts";
import { HOLE, hasHole, type Template } from "./star-match.ts";
import { joinWords, MAX_CHILDREN, named, readWord, renderWord, misreadsContinuation, type SyntaxNode, type WordContext } from "./shell-words.ts";

export interface ShellCommand {
  /** Assignments and words, each in bash's quoting, space-separated. Allow rules must cover this. */
  reading: Template;
  /** Further readings deny rules check: without the assignments, by the name's basename, a wrapper's tails. */
  alsoReadings: Template[];
}

export interface ShellFacts {
  commands: ShellCommand[];
  reads: Template[];
  writes: Template[];
  unsafe?: string;
  opaque?: string;
}

export interface ShellReadOptions {
  /** Relative paths in arguments resolve here. */
  cwd: string;
  /** Parses a script found in the command (`bash -c`, `eval`); undefined when it cannot. */
  parse: (script: string) => SyntaxNode | undefined;
  /** Asked now and then during the walk; true stops it and makes the command opaque. */
  expired?: () => boolean;
}

/** Bounds on the walk: a hostile command cannot make it run long or deep. */
const MAX_NODES = 20_000;
const MAX_DEPTH = 200;
const MAX_SCRIPT_NESTING = 3;
/** Command-substitution syntax left in literal text (quoted, or from a variable name). */
const SUBSTITUTION_TEXT = /\$\(|`/;
/** Paths kept per command line; past this it is opaque rather than half-checked. */
const MAX_PATHS = 1024;

const CONTAINERS: ReadonlySet<string> = new Set([
  "program", "list", "pipeline", "subshell", "compound_statement", "do_group", "if_statement", "elif_clause",
  "else_clause", "while_statement", "negated_command", "case_statement", "case_item", "for_statement",
]);
const REDIRECTS: ReadonlySet<string> = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);
const PLAIN_ARITHMETIC_COMMAND = /^\(\([\s0-9+\-*/%()<>=!&|^~?:,]*\)\)$/;
const ARITHMETIC_TESTS: ReadonlySet<string> = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

export function readShellFacts(root: SyntaxNode, options: ShellReadOptions): ShellFacts {
  const walk = new ShellWalk(options);
  walk.statement(root, 0);
  return walk.facts();
}

class ShellWalk {
  readonly #commands: ShellCommand[] = [];
  readonly #reads: Template[] = [];
  readonly #writes: Template[] = [];
  #unsafe: string | undefined;
  #opaque: string | undefined;
  #nodes = 0;
  #nesting = 0;
  #cwd: WorkingDirectory;
  /** Whether a redirect pointed descriptor 1 or 2 elsewhere, and whether one writes to `/dev/stdout` & co. */
  #outputMoved = false;
  /** Paths earlier commands of the line wrote: a later path beneath one (or naming a link made) leads anywhere. */
  readonly #written: WrittenPath[] = [];
  #writesOutputDevice = false;
  /** Where the redirects of the statement being read start (see `redirected_statement`). */
  #redirectStarts: ReadonlySet<number> = new Set();

  constructor(private readonly options: ShellReadOptions) {
    this.#cwd = options.cwd;
  }

  facts(): ShellFacts {
    if (this.#reads.length + this.#writes.length > MAX_PATHS) this.opaque(`more than ${MAX_PATHS} paths`);
    if (this.#outputMoved && this.#writesOutputDevice) this.opaque("a write to /dev/stdout or /dev/stderr after descriptor 1 or 2 was pointed at a file");
    return {
      commands: this.#commands,
      reads: this.#reads,
      writes: this.#writes,
      ...(this.#unsafe !== undefined && { unsafe: this.#unsafe }),
      ...(this.#opaque !== undefined && { opaque: this.#opaque }),
    };
  }

  opaque(reason: string): void {
    this.#opaque ??= reason;
  }

  statement(node: SyntaxNode, depth: number): void {
    if (!this.#tick() || depth > MAX_DEPTH) return this.opaque("a command too large, too deeply nested or too slow to check");
    if (node.childCount > MAX_CHILDREN) return this.opaque(`a command or list of more than ${MAX_CHILDREN} parts`);
    if (node.isError || node.isMissing) return this.opaque(`a syntax error near ${JSON.stringify(node.text.slice(0, 40))}`);
    if (misreadsContinuation(node)) this.opaque(MISREAD);
    if (CONTAINERS.has(node.type)) return this.#container(node, depth);
    switch (node.type) {
      case "command":
        return this.#command(node, depth);
      case "redirected_statement": {
        // `bash 0<<<'rm f'`: the grammar reads `0` as an argument, bash as the redirect's fd.
        const outer = this.#redirectStarts;
        this.#redirectStarts = new Set([...outer, ...redirectStarts(node)]);
        try {
          for (const child of node.children) if (child) this.#part(child, depth);
        } finally {
          this.#redirectStarts = outer;
        }
        return;
      }
      case "variable_assignment":
      case "variable_assignments":
        return this.#simple(node.type === "variable_assignment" ? [this.#assignment(node, depth)] : named(node).map((child) => this.#assignment(child, depth)), []);
      case "declaration_command":
      case "unset_command":
        return this.#declaration(node, depth);
      case "function_definition":
        this.#unsafe ??= "a function definition";
        for (const child of named(node).slice(1)) this.statement(child, depth + 1);
        return;
      case "test_command":
        return this.#test(node, depth);
      case "comment":
        return;
      default:
        if (REDIRECTS.has(node.type)) return this.#redirect(node, depth);
        return this.opaque(`a construct the checker does not know (${node.type})`);
    }
  }

  #container(node: SyntaxNode, depth: number): void {
    if (node.type === "compound_statement" && node.text.startsWith("((")) {
      if (!PLAIN_ARITHMETIC_COMMAND.test(node.text)) this.opaque("arithmetic on variables (bash evaluates their values, which can run commands)");
      return;
    }
    for (const child of node.children) if (child) this.#part(child, depth);
  }

  /** A child of a statement: another statement, a redirect, a word (for values, case patterns), or a token. */
  #part(child: SyntaxNode, depth: number): void {
    if (child.isMissing || child.isError) return this.opaque(`a syntax error near ${JSON.stringify(child.text.slice(0, 40))}`);
    if (!child.isNamed || child.type === "variable_name" || child.type === "heredoc_start" || child.type === "heredoc_end") return;
    if (CONTAINERS.has(child.type) || ["command", "redirected_statement", "variable_assignment", "variable_assignments", "declaration_command", "unset_command", "function_definition", "test_command", "comment"].includes(child.type) || REDIRECTS.has(child.type)) {
      return this.statement(child, depth + 1);
    }
    this.#word(child, depth);
  }

  /** Counts a node; false once the walk is over its bounds (then it stops descending). */
  #tick(): boolean {
    this.#nodes++;
    if (this.#nodes % 32 === 0 && this.options.expired?.()) this.#nodes = MAX_NODES + 1;
    return this.#nodes <= MAX_NODES;
  }

  #word(node: SyntaxNode, depth: number): Template {
    if (!this.#tick()) {
      this.opaque("a command too large, too deeply nested or too slow to check");
      return [HOLE];
    }
    const context: WordContext = {
      statement: (inner) => this.statement(inner, depth + 1),
      opaque: (reason) => this.opaque(reason),
    };
    return readWord(node, context);
  }

  #assignment(node: SyntaxNode, depth: number): Template {
    if (misreadsContinuation(node)) this.opaque(MISREAD);
    const [name, value] = named(node);
    if (!name) return [HOLE];
    const hazard = variableHazard(name.text);
    if (hazard) this.opaque(hazard);
    const operator = node.text.slice(name.text.length).startsWith("+=") ? "+=" : "=";
    if (!value) return [`${name.text}${operator}`, "''"];
    if (value.type === "array") {
      for (const element of named(value)) this.#word(element, depth);
      return [`${name.text}${operator}`, HOLE];
    }
    return [`${name.text}${operator}`, ...renderWord(this.#word(value, depth))];
  }

  #command(node: SyntaxNode, depth: number): void {
    const assignments: Template[] = [];
    const words: Template[] = [];
    const fdAt = new Set([...this.#redirectStarts, ...redirectStarts(node)]);
    for (const child of node.children) {
      if (!child) continue;
      // Digits touching a redirect are its file descriptor (`0<<<`), not an argument.
      if ((child.type === "number" || child.type === "word") && /^\d+$/.test(child.text) && fdAt.has(child.endIndex)) continue;
      if (child.isMissing || child.isError || !child.isNamed) {
        this.opaque(`a construct the checker does not know (${JSON.stringify(child.text.slice(0, 40))})`);
      } else if (child.type === "variable_assignment") {
        assignments.push(this.#assignment(child, depth));
      } else if (REDIRECTS.has(child.type)) {
        this.#redirect(child, depth);
      } else if (child.type === "command_name") {
        const inner = named(child)[0];
        words.push(inner ? this.#word(inner, depth) : [HOLE]);
      } else {
        words.push(this.#word(child, depth));
      }
    }
    this.#simple(assignments, words, depth);
  }

  #declaration(node: SyntaxNode, depth: number): void {
    const keyword = node.children[0]?.text ?? "";
    const words: Template[] = [[keyword]];
    for (const child of named(node)) {
      if (child.type === "variable_assignment") words.push(this.#assignment(child, depth));
      else if (child.type === "variable_name") words.push([child.text]);
      else words.push(this.#word(child, depth));
    }
    this.#simple([], words, depth);
  }

  /**
   * Quoted text is not always inert: bash evaluates a variable name's subscript
   * (`printf -v 'a[$(rm f)]'`, `read`, `test -v`, `declare`), an integer variable's value and PS4
   * again, and each runs a `$(…)` or backquote it finds there.
   */
  #evaluatedLater(words: readonly Template[]): void {
    if (words.some((word) => word.some((piece) => typeof piece === "string" && SUBSTITUTION_TEXT.test(piece)))) {
      this.opaque("`$(…)` or a backquote inside quoted text, which bash can evaluate later");
    }
  }

  #simple(assignments: Template[], words: Template[], depth = 0): void {
    // Only the shell evaluates text again: an assignment's value, and the words of the builtins
    // that take variable names or arithmetic. A program's arguments (`git commit -m 'use `x`'`) are
    // handed over as they are.
    const head = words[0]?.length === 1 ? String(words[0][0]) : undefined;
    this.#evaluatedLater(head !== undefined && EVALUATING_BUILTINS.has(head) ? [...assignments, ...words] : assignments);
    if (head !== undefined && EVALUATING_BUILTINS.has(head)) {
      // `printf -v 'BASH_CMDS[ls]' …`, `read 'a[y]'`: a name argument is set like an assignment.
      const texts = words.map((word) => word.map((part) => (part === HOLE ? "" : part)).join(""));
      const hazard = texts.slice(1).map(variableHazard).find((reason) => reason !== undefined) ?? (DECLARATIONS.has(head) ? declarationHazard(texts) : undefined);
      if (hazard) this.opaque(hazard);
    }
    // BASH_ENV, ENV and exported functions make the next shell run code no word of this line shows.
    if ([...assignments, ...words].some((word) => typeof word[0] === "string" && CODE_VARIABLES.test(word[0]))) {
      this.opaque("a variable that makes a shell run code (BASH_ENV, ENV, BASH_FUNC_…, PROMPT_COMMAND)");
    }
    if (words.length === 0) {
      this.#commands.push({ reading: joinWords(assignments), alsoReadings: [] });
      return;
    }
    const name = words[0] ?? [HOLE];
    if (hasHole(name) || name.length !== 1) return this.opaque("a command name known only at run time");
    const base = baseName(String(name[0]));
    this.#runsScripts(base, words, depth);
    const readings = commandReadings(assignments, words, base);
    if (readings.tooLong) this.opaque(`\`${base}\` with more than ${MAX_WRAPPER_STARTS} arguments`);
    for (const tail of readings.innerCommands) this.#runsScripts(baseName(String(tail[0]?.[0] ?? "")), tail, depth);
    const paths = commandPaths(base, words, this.#cwd);
    // Tree order is run order closely enough: a path named before the `cd` kept the old directory.
    if (DIRECTORY_CHANGERS.has(base)) this.#cwd = undefined;
    const through = (path: Template) => throughWritten(path, this.#written);
    this.#reads.push(...paths.reads.map(through));
    this.#writes.push(...paths.writes.map(through));
    for (const path of paths.writes) if (!hasHole(path)) this.#written.push({ path: String(path[0]), link: LINK_MAKERS.has(base) });
    this.#commands.push({ reading: readings.reading, alsoReadings: readings.alsoReadings });
  }

  /** Shells, `eval` and the hidden runners: read the script they run, or say it cannot be read. */
  #runsScripts(base: string, words: Template[], depth: number): void {
    if (HIDDEN_RUNNERS.has(base)) return this.opaque(`\`${base}\`, which runs commands the rules cannot see`);
    // `flock -c`, `git -c alias.x='!…'`, awk's `system()`, sed's `e`/`r`/`w` (command-string-options.ts).
    const runsText = commandStringOption(base, words);
    if (runsText) return this.opaque(runsText);
    // `mapfile -C CALLBACK` / `readarray -C` run the callback as shell code every few lines.
    if ((base === "mapfile" || base === "readarray") && words.slice(1).some((word) => word.length === 1 && /^-[a-zA-Z]*C/.test(String(word[0])))) {
      return this.opaque(`\`${base} -C\`, which runs a callback the rules cannot see`);
    }
    if (base === "eval") {
      // `eval -- 'rm f'`: `--` ends eval's options and is not part of the script.
      const args = words.slice(1);
      if (args[0]?.length === 1 && args[0][0] === "--") args.shift();
      if (args.some((word) => hasHole(word))) return this.opaque("`eval` of text known only at run time");
      return this.#script(args.map((word) => word.join("")).join(" "), depth);
    }
    // `env -S 'rm f'` splits a string into a command line: text the reading would have to re-split.
    if (base === "env" && words.some((word) => word.length === 1 && /^(-[a-zA-Z]*S|--split-string)/.test(String(word[0])))) {
      return this.opaque("`env -S`, which splits a string into a command");
    }
    if (COMMAND_STRING_RUNNERS.has(base)) {
      // `su -c`, `runuser -c`, `script -c`, `sg GROUP -c`: a command string the rules do not parse.
      return this.opaque(`\`${base}\`, which runs a command string or a shell of its own`);
    }
    if (!isShell(base)) return;
    const option = words.findIndex((word, index) => index > 0 && word.length === 1 && isShellScriptOption(String(word[0])));
    // The script is the word right after -c; anything option-like there (`--`, `-e`, `-o x`) moves
    // it somewhere this reading would have to guess, so the command is not read at all.
    // `-co errexit SCRIPT`: an option in the cluster takes the next word, so the script moves on.
    if (option !== -1 && /[oO]/.test(String(words[option]?.[0]))) return this.opaque(`\`${base} ${String(words[option]?.[0])}\`, whose script is not the next word`);
    const next = option === -1 ? undefined : words[option + 1];
    if (next && next.length === 1 && /^[-+]/.test(String(next[0]))) return this.opaque(`\`${base} -c\` followed by more options before its script`);
    const script = next;
    if (script && hasHole(script)) return this.opaque(`\`${base} -c\` with a script known only at run time`);
    // `bash $x 'rm f'` with x=-c runs the script: an unknown word could be any option.
    if (words.some((word) => hasHole(word))) return this.opaque(`\`${base}\` with arguments known only at run time`);
    const operands = words.slice(1).filter((word) => !(word.length === 1 && String(word[0]).startsWith("-")));
    if (option === -1) {
      // `bash /dev/stdin <<< 'rm f'` reads its script from the request itself, like `bash -s`.
      const fromInput = operands.length === 0 || words.some((word) => word.length === 1 && (word[0] === "-s" || word[0] === "-")) || STANDARD_INPUT.test(String(operands[0]?.[0] ?? ""));
      if (fromInput) this.opaque(`\`${base}\` reading commands from its input`);
      return;
    }
    if (!script) return this.opaque(`\`${base} -c\` without a script`);
    this.#script(script.join(""), depth);
  }

  #script(script: string, depth: number): void {
    if (this.#nesting >= MAX_SCRIPT_NESTING) return this.opaque("scripts nested too deeply to check");
    const tree = this.options.parse(script);
    if (!tree) return this.opaque("a script the parser could not read");
    this.#nesting++;
    this.statement(tree, depth + 1);
    this.#nesting--;
  }

  #redirect(node: SyntaxNode, depth: number): void {
    if (misreadsContinuation(node)) this.opaque(MISREAD);
    if (node.type === "herestring_redirect") {
      for (const child of named(node)) this.#word(child, depth);
      return;
    }
    if (node.type === "heredoc_redirect") {
      const hazard = heredocHazard(node);
      if (hazard) this.opaque(hazard);
      for (const child of named(node)) {
        if (child.type !== "heredoc_body") {
          this.#part(child, depth);
          continue;
        }
        for (const piece of named(child)) {
          if (piece.type !== "heredoc_content") this.#word(piece, depth);
          // The grammar leaves backquotes and `$[...]` in a heredoc as text; bash runs them.
          else if (/`|\$\[|\$\(|\$\{/.test(piece.text)) this.opaque("a substitution the parser left as text in a heredoc");
        }
        if (named(child).length === 0 && !isQuotedHeredoc(node) && /`|\$\[|\$\(|\$\{/.test(child.text)) {
          this.opaque("a substitution the parser left as text in a heredoc");
        }
      }
      return;
    }
    const operator = node.children.find((child) => child !== null && !child.isNamed)?.type ?? "";
    // `1<file` or `2<file` opens a file on an output descriptor: a later `>/dev/stdout` reopens it
    // for writing (the path names the descriptor, not a device).
    const fd = named(node).find((child) => child.type === "file_descriptor")?.text;
    if ((fd === "1" || fd === "2") && (operator === "<" || operator === "<>")) this.opaque(`a file opened on descriptor ${fd} for reading`);
    for (const target of named(node).filter((child) => child.type !== "file_descriptor")) {
      if (movesOutputDescriptor(fd, operator, target.text)) this.#outputMoved = true;
      if (OUTPUT_DEVICE.test(target.text)) this.#writesOutputDevice = true;
      if (isDescriptorTarget(operator, target.text)) continue;
      const effect = redirectEffect(operator, this.#word(target, depth), this.#cwd);
      if (effect.read) this.#reads.push(effect.read);
      if (effect.write) {
        this.#writes.push(effect.write);
        this.#unsafe ??= "an output redirection to a file";
      }
      if (effect.unknown) this.opaque(effect.unknown);
    }
  }

  #test(node: SyntaxNode, depth: number): void {
    const visit = (current: SyntaxNode): void => {
      for (const child of current.children) {
        if (!child) continue;
        if (child.isMissing || child.isError) this.opaque("a syntax error in a test");
        else if (child.type === "test_operator" && ARITHMETIC_TESTS.has(child.text)) this.opaque(`the arithmetic test ${child.text} (bash evaluates its operands)`);
        else if (["binary_expression", "unary_expression", "parenthesized_expression"].includes(child.type)) visit(child);
        else if (child.type === "regex") {
          if (/\$\(|`/.test(child.text)) this.opaque("a substitution inside a test pattern");
        } else if (child.isNamed && child.type !== "test_operator") this.#evaluatedLater([this.#word(child, depth)]);
      }
    };
    visit(node);
  }
}

function redirectStarts(node: SyntaxNode): number[] {
  return node.children.flatMap((child) => (child && REDIRECTS.has(child.type) ? [child.startIndex] : []));
}
