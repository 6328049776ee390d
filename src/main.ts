#!/usr/bin/env bun
import { builtinTools } from "./builtin/list.ts";
console.log(builtinTools().map((t) => t.name));
