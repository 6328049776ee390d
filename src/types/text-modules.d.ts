// Tool descriptions live in .txt files beside their tools and are imported as text.
declare module "*.txt" {
  const text: string;
  export default text;
}
