#!/usr/bin/env bun
/** Entry point of every tier's binary. */
import { runCli } from "./cli/main.ts";

const code = await runCli(process.argv.slice(2));
process.exit(code);
