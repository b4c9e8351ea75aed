"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "./button";

type Envelope = { page: number; totalPages: number; previousPage: number | null; nextPage: number | null };

export function Pager({
  envelope,
  onPage,
  label,
}: {
  envelope: Envelope;
  onPage: (page: number) => void;
  label: string;
}) {
  if (envelope.totalPages <= 1) return null;
  const { previousPage, nextPage } = envelope;
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between text-sm text-slate-600">
      <span>
        Page {envelope.page} of {envelope.totalPages}
      </span>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!previousPage}
          onClick={() => previousPage && onPage(previousPage)}
        >
          <ChevronLeft aria-hidden className="size-4" />
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={!nextPage} onClick={() => nextPage && onPage(nextPage)}>
          Next
          <ChevronRight aria-hidden className="size-4" />
        </Button>
      </div>
    </nav>
  );
}
