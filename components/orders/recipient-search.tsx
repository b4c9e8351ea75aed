"use client";

import { Search } from "lucide-react";
import { useEffect, useEffectEvent, useState } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { orderFilters, type OrderFilters } from "@/lib/order-filters";
import { RECIPIENT_SEARCH, recipientSearchOf } from "@/lib/recipient-search";
import { useSearchNavigation } from "@/lib/use-search-navigation";

const DEBOUNCE_MS = 400;
const ID = "search-recipient";

/**
 * Search by recipient name: once the typist pauses, the text goes into the URL (`recipient`) beside the other filters,
 * so a reload or a shared link keeps it, and the list shows the first page of what matches. Fewer than 3 characters
 * leave the list as it is.
 */
export function RecipientSearch({ filters }: { filters: OrderFilters }) {
  const value = filters.recipient;
  const [text, setText] = useState(value);
  // The URL's text the field last agreed with, and the text this field last put there: a change of the URL from
  // elsewhere ("Clear filters", back) is written into the field, the echo of its own search is not (the typist may
  // have typed on meanwhile).
  const [seen, setSeen] = useState(value);
  const [sent, setSent] = useState<string | null>(null);
  if (value !== seen) {
    setSeen(value);
    if (value !== sent) setText(value);
  }
  const { navigate } = useSearchNavigation();
  const search = useEffectEvent((recipient: string) => {
    if (recipient === value) return;
    setSent(recipient);
    navigate(orderFilters.search({ ...filters, recipient, page: 1 }));
  });
  const next = recipientSearchOf(text);
  useEffect(() => {
    if (next === null) return;
    const timer = setTimeout(() => search(next), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [next]);

  return (
    <div className="w-full max-w-sm space-y-1.5">
      <Label htmlFor={ID}>Recipient name</Label>
      <div className="relative">
        <Search aria-hidden className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-500" />
        <Input
          id={ID}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={RECIPIENT_SEARCH.max}
          autoComplete="off"
          placeholder="e.g. Novák"
          aria-describedby={`${ID}-hint`}
          className="pl-9"
        />
      </div>
      <p id={`${ID}-hint`} className="text-xs text-slate-500" aria-live="polite">
        {next === null
          ? `Type at least ${RECIPIENT_SEARCH.min} characters to search.`
          : "Part of the name; case and accents are ignored."}
      </p>
    </div>
  );
}
