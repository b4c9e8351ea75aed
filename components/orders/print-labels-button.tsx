"use client";

import { Download, Printer } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { labelFormat, labelsUrl, type LabelFormatId } from "@/lib/label-formats";
import { printRefusal, type SelectableOrder } from "@/lib/label-selection";
import { LabelFormatSelect } from "./label-format-select";
import { usePrintFrame } from "./print-frame";

/**
 * The chosen orders' labels as one document, drawn by the server in the list's order (A4 sheets packed across orders);
 * a PDF opens in the print dialog, ZPL (for the printer's own tools) is downloaded. Refused, with the
 * reason beside it, while nothing is chosen or a chosen order has no label yet.
 */
export function PrintLabelsButton({ accountId, orders }: { accountId: string; orders: SelectableOrder[] }) {
  const [formatId, setFormatId] = useState<LabelFormatId>("pdf-a6");
  const print = usePrintFrame();
  const reasonId = useId();
  const format = labelFormat(formatId);
  const refusal = printRefusal(orders);

  function run() {
    if (refusal) return;
    const url = labelsUrl(accountId, orders, formatId);
    // The page's own URL, not a blob: the dashboard's CSP frames only its own origin.
    if (format.extension === "pdf")
      print(url, `Labels of ${orders.length} ${orders.length === 1 ? "order" : "orders"}`);
    else download(`${url}&download=1`);
  }

  const Icon = format.extension === "pdf" ? Printer : Download;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <LabelFormatSelect value={formatId} onChange={setFormatId} />
      <Button
        onClick={run}
        aria-disabled={refusal !== null}
        aria-describedby={refusal ? reasonId : undefined}
        className="aria-disabled:cursor-not-allowed aria-disabled:bg-blue-300"
      >
        <Icon aria-hidden className="size-4" />
        {format.extension === "pdf" ? "Print labels" : "Download labels"} ({orders.length})
      </Button>
      {refusal ? (
        <p id={reasonId} className="text-sm text-slate-600">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}

function download(url: string) {
  const link = document.createElement("a");
  link.href = url;
  link.download = "";
  link.click();
}
