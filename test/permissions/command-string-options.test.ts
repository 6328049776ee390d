/**
 * Hostile pass: spellings that ran `rm` past `Bash(rm:*)` and read `.env` past `Read(**\/.env)` with
 * the sandbox off — a command string or a file inside an ordinary program's options or script
 * (git `-c`, awk's `system()`/`getline`, sed's `e`/`r`/`w`). Each must make the command opaque;
 * the plain uses of the same programs must still be read.
 */
import { describe, expect, test } from "bun:test";
import { ShellParser } from "../../src/builtin/shell-parser.ts";
import { sedScriptIsPlain } from "../../src/permissions/command-string-options.ts";

const parser = new ShellParser();
const opaque = async (command: string) => (await parser.read(command, "/w")).opaque;

describe("programs that run command strings or open files from their script", () => {
  test("each spelling that ran rm or read .env past the rules is opaque", async () => {
    for (const command of [
      "git -c alias.x='!rm victim' x",
      "git -c core.sshCommand='cat .env >&2' ls-remote ssh://x/y",
      "git --config-env=core.pager=P log",
      "git -C sub -c core.pager='rm f' log",
      "awk 'BEGIN{system(\"rm victim\")}'",
      "gawk 'BEGIN{while ((getline l < \".env\") > 0) print l}'",
      "awk '{print | \"sh\"}' f",
      "awk '{print > \"victim\"}' f",
      "awk -f prog.awk f",
      "echo x | sed -n '1e rm victim'",
      "echo x | sed 's/x/cat .env/e'",
      "sed 'r .env' f",
      "sed -n 'w victim' f",
      "sed -e p -e 's/a/b/w out' f",
      "sed -f script.sed f",
      "sed \"$s\" f",
    ]) {
      expect({ command, opaque: (await opaque(command)) !== undefined }).toEqual({ command, opaque: true });
    }
  });

  test("plain uses stay readable: git's own -c after the subcommand, awk printing, sed substitutions", async () => {
    for (const command of ["git commit -c HEAD", "git -C sub status", "awk '{print $1}' f", "sed -n 's/hello/world/gp' f", "sed -i -e 's|a|b|' -e '/x/d' f", "sed --sandbox 'w out' f", "sed ':a;N;$!ba;s/\\n/ /g' f"]) {
      expect({ command, opaque: await opaque(command) }).toEqual({ command, opaque: undefined });
    }
  });

  test("the sed walk: unknown or file commands are not plain", () => {
    expect(["s/re/x/g", "y/abc/xyz/", "/foo/{s/a/b/;p}", "\\,x,d", "s/a\\/e/b/", "a text with w and e"].map(sedScriptIsPlain)).toEqual([true, true, true, true, true, true]);
    expect(["1e ls", "s/x/y/e", "s/x/y/w f", "R f", "W f", "v", "s/unterminated"].map(sedScriptIsPlain)).toEqual([false, false, false, false, false, false, false]);
  });
});
