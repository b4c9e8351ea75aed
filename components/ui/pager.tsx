"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "./button";

type Envelope = { page: number; totalPages: number; previousPage: boolean; nextPage: boolean };

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
  const { page, totalPages, previousPage, nextPage } = envelope;
  // A page past the end (rows deleted meanwhile) steps back to the last page that exists.
  const previous = Math.min(page - 1, Math.max(totalPages, 1));
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between text-sm text-slate-600">
      <span>
        Page {page} of {totalPages}
      </span>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={!previousPage} onClick={() => onPage(previous)}>
          <ChevronLeft aria-hidden className="size-4" />
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={!nextPage} onClick={() => onPage(page + 1)}>
          Next
          <ChevronRight aria-hidden className="size-4" />
        </Button>
      </div>
    </nav>
  );
}
