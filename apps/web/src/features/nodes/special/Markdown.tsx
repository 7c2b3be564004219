import ReactMarkdown, { type Components, type UrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";
import { linkHref, mediaSrc } from "../viewers/safe-url.ts";

/** Links leave the canvas in a new tab with no access back to it. */
const components: Components = {
  a: ({ node: _node, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer nofollow" />
  ),
};

/** Images and links pass core's allow-list; a refused address is left out (undefined). */
const urlTransform: UrlTransform = (url, key) =>
  (key === "src" ? mediaSrc(url, "image") : linkHref(url)) ?? undefined;

/**
 * Markdown (with GitHub's tables, task lists, strikethrough) rendered as React elements:
 * raw HTML in the text is dropped, and only addresses the allow-list passes are kept
 * (http(s), this server's media, plain mailto; never javascript:, data:text or relative).
 */
export default function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown nodrag nowheel">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={urlTransform}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
