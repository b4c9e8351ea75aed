"use client";

import { Filter, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, TextField } from "@/components/ui/field";
import { MultiSelect } from "@/components/ui/multi-select";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { splitList } from "@/lib/search-params";
import type { FilterField, FilterFields, FilterOption, FilterValues, UrlFilters } from "@/lib/url-filters";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { FilterActions, FilterPanel } from "./filter-panel";

/** The select value meaning "no filter": Radix Select items cannot have an empty value. */
const ANY = "__any__";

const grid = { 3: "grid gap-4 sm:grid-cols-2 lg:grid-cols-3", 4: "grid gap-4 sm:grid-cols-2 lg:grid-cols-4" };

type Value = string | string[];

/**
 * A list's filter form, drawn from its filter definition. The filters apply on submit and live in the URL,
 * so a reload or a shared link keeps them. `choices` are the options of the choice fields; one without
 * options is not offered (the account choice, for partners). `order` is the order on screen when it is
 * not the URL's.
 */
export function FilterForm<D extends FilterFields>({
  label,
  filters,
  values,
  choices,
  order = Object.keys(filters.fields),
  columns,
  actions,
}: {
  label: string;
  filters: UrlFilters<D>;
  values: FilterValues<D>;
  choices: { [K in keyof D]?: readonly FilterOption[] | null };
  order?: (keyof D & string)[];
  columns: keyof typeof grid;
  /** Where Apply and Clear go: in the last row of inputs, or under them. */
  actions: "in-grid" | "below";
}) {
  const fields: Record<string, FilterField> = filters.fields;
  const current = values as Record<string, Value>;
  const options = choices as Record<string, readonly FilterOption[] | null | undefined>;
  // Menus and selects hold their choice until the form is submitted; text inputs are read from the form.
  const [picked, setPicked] = useState(() =>
    Object.fromEntries(
      Object.entries(fields).flatMap(([name, field]) =>
        field.kind === "enum" ? [[name, current[name]]] : field.kind === "choice" ? [[name, current[name] || ANY]] : [],
      ),
    ),
  );
  const pick = (name: string) => (value: Value) => setPicked((before) => ({ ...before, [name]: value }));
  const [rangeError, setRangeError] = useState<{ name: string; message: string }>();
  const { navigate, isPending } = useSearchNavigation();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const next: Record<string, Value> = {};
    for (const [name, field] of Object.entries(fields)) {
      if (field.kind === "list") next[name] = splitList(text(name));
      else if (field.kind === "day" || field.kind === "text") next[name] = text(name);
      else next[name] = picked[name] === ANY ? "" : picked[name];
    }
    // Caught here so the message sits at the input; the server would refuse the range all the same.
    for (const [name, field] of Object.entries(fields)) {
      if (field.kind === "day" && field.after && next[field.after] && next[name] && next[field.after] > next[name]) {
        setRangeError({ name, message: `Must not be before “${fields[field.after].label}”.` });
        document.getElementById(field.id)?.focus();
        return;
      }
    }
    setRangeError(undefined);
    navigate(filters.search({ ...next, page: 1 } as FilterValues<D>));
  }

  function input(name: string) {
    const field = fields[name];
    const choiceOptions = options[name];
    switch (field.kind) {
      case "day":
        return (
          <TextField
            key={name}
            id={field.id}
            name={name}
            type="date"
            label={`${field.label} (UTC)`}
            defaultValue={current[name]}
            error={rangeError?.name === name ? rangeError.message : undefined}
          />
        );
      case "list":
      case "text":
        return (
          <TextField
            key={name}
            id={field.id}
            name={name}
            label={field.label}
            {...(field.kind === "list"
              ? { hint: "Separate several with commas.", defaultValue: (current[name] as string[]).join(", ") }
              : { defaultValue: current[name], maxLength: field.maxLength, hint: field.hint })}
            autoComplete="off"
          />
        );
      case "enum":
        return (
          <MultiSelect
            key={name}
            id={field.id}
            label={field.label}
            options={field.options}
            value={picked[name] as string[]}
            onChange={pick(name)}
            anyLabel={field.anyLabel}
          />
        );
      case "choice":
        return choiceOptions ? (
          <Field key={name} id={field.id} label={field.label}>
            <Select value={picked[name] as string} onValueChange={pick(name)}>
              <SelectTrigger id={field.id} />
              <SelectContent>
                <SelectItem value={field.all ?? ANY}>{field.anyLabel}</SelectItem>
                {choiceOptions.map((o) => (
                  <SelectItem key={o.value} value={o.value} description={o.description}>
                    {o.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        ) : null;
    }
  }

  const active = filters.activeCount(values);
  const buttons = (
    <>
      <Button type="submit" disabled={isPending}>
        {isPending ? <Spinner /> : <Filter aria-hidden className="size-4" />}
        Apply filters
      </Button>
      {active > 0 ? (
        <Button variant="ghost" onClick={() => navigate(new URLSearchParams())} disabled={isPending}>
          <X aria-hidden className="size-4" />
          Clear
        </Button>
      ) : null}
    </>
  );

  return (
    <FilterPanel label={label} active={active} onSubmit={submit}>
      <div className={grid[columns]}>
        {order.map(input)}
        {actions === "in-grid" ? <FilterActions>{buttons}</FilterActions> : null}
      </div>
      {actions === "below" ? <div className="mt-4 flex gap-2">{buttons}</div> : null}
    </FilterPanel>
  );
}
