import ReactMarkdown, { type Components, defaultUrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";

/** Links leave the canvas in a new tab with no access back to it. */
const components: Components = {
  a: ({ node: _node, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer nofollow" />
  ),
};

/**
 * Markdown (with GitHub's tables, task lists, strikethrough) rendered as React elements:
 * raw HTML in the text is dropped, and link targets other than http(s), mailto and
 * relative ones are removed (`defaultUrlTransform`).
 */
export default function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown nodrag nowheel">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={defaultUrlTransform}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
