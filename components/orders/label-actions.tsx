"use client";

import { Download, Printer } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { labelFormat, type LabelFormatId } from "@/lib/label-formats";
import { LabelFormatSelect } from "./label-format-select";
import { usePrintFrame } from "./print-frame";

/**
 * Download and print the order's labels in the format the warehouse prints from the session-protected label route.
 * ZPL goes to the printer's own tools, so it is only downloaded.
 */
export function LabelActions({ labelUrl, reference }: { labelUrl: string; reference: string }) {
  const [formatId, setFormatId] = useState<LabelFormatId>("pdf-a6");
  const format = labelFormat(formatId);
  const url = `${labelUrl}&format=${format.id}`;
  const print = usePrintFrame();

  return (
    <>
      <LabelFormatSelect value={formatId} onChange={setFormatId} />
      <Button asChild variant="secondary">
        <a href={`${url}&download=1`} download={`label-${reference}.${format.extension}`}>
          <Download aria-hidden className="size-4" />
          Download label
        </a>
      </Button>
      {format.extension === "pdf" ? (
        <Button variant="secondary" onClick={() => print(url, `Label of ${reference}`)}>
          <Printer aria-hidden className="size-4" />
          Print label
        </Button>
      ) : null}
    </>
  );
}
