"use client";

import { Download, Printer } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";

const FORMATS = [
  { id: "pdf-a6", name: "PDF, A6 (one label per page)", extension: "pdf" },
  { id: "pdf-a4", name: "PDF, A4 (four labels per sheet)", extension: "pdf" },
  { id: "zpl", name: "ZPL for thermal printers (203 dpi)", extension: "zpl" },
] as const;
type FormatId = (typeof FORMATS)[number]["id"];

/**
 * Download and print the order's labels in the format the warehouse prints (PDF A6, PDF A4 four to a sheet,
 * or ZPL for a thermal printer) from the session-protected label route. ZPL goes to the printer's own tools,
 * so it is only downloaded.
 * Printing loads the PDF into a hidden frame of this page and opens the print dialog for it; if the
 * browser will not print a frame, the PDF opens in a new tab to print from there.
 */
export function LabelActions({ labelUrl, reference }: { labelUrl: string; reference: string }) {
  const frame = useRef<HTMLIFrameElement | null>(null);
  const [formatId, setFormatId] = useState<FormatId>("pdf-a6");
  const format = FORMATS.find((f) => f.id === formatId)!;
  const url = `${labelUrl}&format=${format.id}`;
  useEffect(() => () => frame.current?.remove(), []);

  function print() {
    frame.current?.remove();
    const iframe = document.createElement("iframe");
    iframe.title = `Label of ${reference}`;
    iframe.setAttribute("aria-hidden", "true");
    iframe.tabIndex = -1;
    // Off screen but rendered: some browsers print nothing from a frame that is display:none.
    Object.assign(iframe.style, {
      position: "fixed",
      right: "0",
      bottom: "0",
      width: "1px",
      height: "1px",
      border: "0",
      opacity: "0",
    });
    iframe.addEventListener("load", () => {
      try {
        iframe.contentWindow?.focus();
        iframe.contentWindow?.print();
      } catch {
        if (!window.open(url, "_blank")) toast.error("Allow pop-ups for this site to print the label, or download it.");
      }
    });
    iframe.src = url;
    document.body.append(iframe);
    frame.current = iframe;
  }

  return (
    <>
      <Select value={formatId} onValueChange={(value) => setFormatId(value as FormatId)}>
        <SelectTrigger aria-label="Label format" className="w-auto min-w-56" />
        <SelectContent>
          {FORMATS.map((f) => (
            <SelectItem key={f.id} value={f.id}>
              {f.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Button asChild variant="secondary">
        <a href={`${url}&download=1`} download={`label-${reference}.${format.extension}`}>
          <Download aria-hidden className="size-4" />
          Download label
        </a>
      </Button>
      {format.extension === "pdf" ? (
        <Button variant="secondary" onClick={print}>
          <Printer aria-hidden className="size-4" />
          Print label
        </Button>
      ) : null}
    </>
  );
}
