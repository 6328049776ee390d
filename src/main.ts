#!/usr/bin/env bun
/** Entry point of every tier's binary. */
import { onClosedOutput } from "./cli/closed-output.ts";
import { runCli } from "./cli/main.ts";

// The reader of stdout went away (`| head`): end quietly. Not for `serve`, whose stdout is only
// its start-up progress: a daemon must not stop because a terminal pipe closed.
const serving = process.argv.slice(2).includes("serve");
onClosedOutput(process.stdout, () => (serving ? undefined : process.exit(0)));
onClosedOutput(process.stderr, () => undefined);

const code = await runCli(process.argv.slice(2));
process.exit(code);
