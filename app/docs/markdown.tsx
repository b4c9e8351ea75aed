import { Fragment, type ReactNode } from "react";

/**
 * The Markdown the document's descriptions use, and no more: `##` headings, `-` and `1.` lists (with
 * two-space continuation lines), paragraphs, `code`, **bold** and *emphasis*. Text is rendered as React
 * children, never as HTML, so nothing in a description can inject markup.
 */

function inline(text: string): ReactNode[] {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*)/g).filter(Boolean);
  return parts.map((part, i) => {
    if (part.startsWith("`"))
      return (
        <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
          {part.slice(1, -1)}
        </code>
      );
    if (part.startsWith("**")) return <strong key={i}>{part.slice(2, -2)}</strong>;
    if (part.startsWith("*") && part.length > 2) return <em key={i}>{part.slice(1, -1)}</em>;
    return <Fragment key={i}>{part}</Fragment>;
  });
}

type Block = { kind: "h" | "p" | "ul" | "ol"; lines: string[] };

function blocks(text: string): Block[] {
  const out: Block[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const last = out.at(-1);
    if (line.trim() === "") {
      out.push({ kind: "p", lines: [] });
    } else if (line.startsWith("## ")) {
      out.push({ kind: "h", lines: [line.slice(3)] });
    } else if (/^- /.test(line)) {
      if (last?.kind === "ul") last.lines.push(line.slice(2));
      else out.push({ kind: "ul", lines: [line.slice(2)] });
    } else if (/^\d+\. /.test(line)) {
      const item = line.replace(/^\d+\. /, "");
      if (last?.kind === "ol") last.lines.push(item);
      else out.push({ kind: "ol", lines: [item] });
    } else if (/^\s+/.test(line) && (last?.kind === "ul" || last?.kind === "ol") && last.lines.length > 0) {
      last.lines[last.lines.length - 1] += ` ${line.trim()}`;
    } else if (last?.kind === "p") {
      last.lines.push(line);
    } else {
      out.push({ kind: "p", lines: [line] });
    }
  }
  return out.filter((b) => b.lines.length > 0);
}

/** One line of text with `code`, **bold** and *emphasis*, as phrasing content (for inside `<summary>` or a sentence). */
export function InlineMarkdown({ text, className }: { text: string; className?: string }) {
  return <span className={className}>{inline(text)}</span>;
}

export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className}>
      {blocks(text).map((block, i) => {
        if (block.kind === "h")
          return (
            <h3 key={i} className="mt-5 mb-1 text-base font-semibold text-slate-900">
              {inline(block.lines[0]!)}
            </h3>
          );
        if (block.kind === "ul" || block.kind === "ol") {
          const List = block.kind;
          return (
            <List key={i} className={`my-2 space-y-1 pl-5 ${block.kind === "ul" ? "list-disc" : "list-decimal"}`}>
              {block.lines.map((item, j) => (
                <li key={j}>{inline(item)}</li>
              ))}
            </List>
          );
        }
        return (
          <p key={i} className="my-2">
            {inline(block.lines.join(" "))}
          </p>
        );
      })}
    </div>
  );
}
