/** The HTML-to-Markdown converter, embedded beside the main bundle (see runtime/embedded-module.ts); only web-content.ts loads it. */
export { NodeHtmlMarkdown } from "node-html-markdown";
