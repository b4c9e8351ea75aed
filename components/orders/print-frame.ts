"use client";

import { useEffect, useRef } from "react";
import { toast } from "sonner";

/**
 * Printing a PDF from the page: it is loaded into a hidden frame and the print dialog opened for it; if the browser
 * will not print a frame, the PDF opens in a new tab to print from there. One frame at a time, removed on unmount.
 */
export function usePrintFrame() {
  const frame = useRef<HTMLIFrameElement | null>(null);
  useEffect(() => () => frame.current?.remove(), []);

  return function print(url: string, title: string) {
    frame.current?.remove();
    const iframe = document.createElement("iframe");
    iframe.title = title;
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
        if (!window.open(url, "_blank"))
          toast.error("Allow pop-ups for this site to print the labels, or download them.");
      }
    });
    iframe.src = url;
    document.body.append(iframe);
    frame.current = iframe;
  };
}
