"use client";

import { Download, Printer } from "lucide-react";
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";

/**
 * Download and print the order's label (a PDF, a page per parcel) from the session-protected label route.
 * Printing loads the PDF into a hidden frame of this page and opens the print dialog for it; if the
 * browser will not print a frame, the PDF opens in a new tab to print from there.
 */
export function LabelActions({ labelUrl, reference }: { labelUrl: string; reference: string }) {
  const frame = useRef<HTMLIFrameElement | null>(null);
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
        if (!window.open(labelUrl, "_blank"))
          toast.error("Allow pop-ups for this site to print the label, or download it.");
      }
    });
    iframe.src = labelUrl;
    document.body.append(iframe);
    frame.current = iframe;
  }

  return (
    <>
      <Button asChild variant="secondary">
        <a href={`${labelUrl}&download=1`} download={`label-${reference}.pdf`}>
          <Download aria-hidden className="size-4" />
          Download label
        </a>
      </Button>
      <Button variant="secondary" onClick={print}>
        <Printer aria-hidden className="size-4" />
        Print label
      </Button>
    </>
  );
}
