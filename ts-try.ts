import { Parser, Language } from "web-tree-sitter";
import coreWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };
await Parser.init({ wasmBinary: await Bun.file(coreWasm).bytes() });
const lang = await Language.load(await Bun.file(bashWasm).bytes());
const p = new Parser(); p.setLanguage(lang);
function show(n: any, d = 0): string {
  const kids = n.children.map((c: any, i: number) => { const f = n.fieldNameForChild(i); return (f ? f + ":" : "") + show(c, d + 1); });
  const label = n.isNamed ? n.type : JSON.stringify(n.type);
  return kids.length ? `(${label} ${kids.join(" ")})` : (n.isNamed ? `${label}[${JSON.stringify(n.text)}]` : label);
}
for (const s of process.argv.slice(2)) { const t = p.parse(s)!; console.log(JSON.stringify(s), "\n  ", show(t.rootNode), t.rootNode.hasError); }
