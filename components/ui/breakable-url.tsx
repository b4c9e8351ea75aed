import { Fragment } from "react";

/**
 * A URL or origin that may wrap at its own punctuation ("https://", each "." and "-", "/", ":") rather than
 * anywhere: `break-all` cut "https://shop.examp|le" mid-word, and no wrapping at all pushed a table wider than the
 * screen. A `<wbr>` after each separator; copying the text copies the URL unchanged.
 */
export function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=:\/\/|[.-]|[^:/]\/|:(?!\/\/))/);
  return (
    <span className="wrap-break-word">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
