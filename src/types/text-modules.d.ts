// Tool descriptions live in .txt files beside their tools and are imported as text.
declare module "*.txt" {
  const text: string;
  export default text;
}

/** WebAssembly imported `with { type: "file" }`: the path of the file (inside the binary once compiled). */
declare module "*.wasm" {
  const path: string;
  export default path;
}
