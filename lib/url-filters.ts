import { dayParam, pageParam, paramValue, paramValues, searchOf, type SearchParamsRecord } from "./search-params";

/**
 * A list page's filters, declared once: each field's kind says how it is read from the URL, written back
 * to it, counted as active and shown in the filter form (`components/filter-form.tsx`). The field's key
 * is its URL parameter, and the fields' order is the order of the parameters in a link.
 */
export type FilterOption<T extends string = string> = { value: T; label: string; description?: string };

/** A UTC day, `yyyy-MM-dd`. `after` names the day it must not be before: the two are one date range. */
type DayField = { kind: "day"; id: string; label: string; after?: string };
/** Several values in one input, separated by commas (or repeated in the URL). */
type ListField = { kind: "list"; id: string; label: string };
/** One text to search for, not split at commas. */
type TextField = { kind: "text"; id: string; label: string; maxLength: number; hint?: string };
/** Any of a fixed set of values. */
type EnumField<T extends string = string> = {
  kind: "enum";
  id: string;
  label: string;
  anyLabel: string;
  options: readonly FilterOption<T>[];
};
/**
 * One of a list the page loads (couriers, profiles, accounts). `all` is the value meaning "no filter" when
 * that is not empty; a `scope` choice picks whose list is shown rather than narrowing it.
 */
type ChoiceField = { kind: "choice"; id: string; label: string; anyLabel: string; all?: string; scope?: boolean };

export type FilterField = DayField | ListField | TextField | EnumField | ChoiceField;
export type FilterFields = Record<string, FilterField>;

type ValueOf<F> = F extends { kind: "enum"; options: readonly FilterOption<infer T>[] }
  ? T[]
  : F extends { kind: "list" }
    ? string[]
    : string;

/** The filters as the URL holds them, and the page of the list. */
export type FilterValues<D extends FilterFields> = { [K in keyof D]: ValueOf<D[K]> } & { page: number };

export type UrlFilters<D extends FilterFields> = {
  fields: D;
  parse: (params: SearchParamsRecord) => FilterValues<D>;
  /** The query string of these filters, leaving out what is not set, so shared links stay short. */
  search: (values: FilterValues<D>) => URLSearchParams;
  /** How many filters are set (a date range counts once), for the folded filter panel on narrow screens. */
  activeCount: (values: FilterValues<D>) => number;
  /** Whether the list is narrowed, so an empty one says "no match" rather than "nothing yet". */
  isFiltered: (values: FilterValues<D>) => boolean;
};

/** The "Courier" filter of the list pages: every integrated courier, or any. */
export const courierChoice = (id: string) =>
  ({ kind: "choice", id, label: "Courier", anyLabel: "Any courier" }) as const satisfies ChoiceField;

type Value = string | string[];

function parseField(field: FilterField, params: SearchParamsRecord, name: string): Value {
  switch (field.kind) {
    case "day":
      return dayParam(params, name);
    case "list":
      return paramValues(params, name);
    case "text": {
      const raw = params[name];
      return typeof raw === "string" ? raw.trim().slice(0, field.maxLength).replaceAll("\u0000", "") : "";
    }
    case "enum":
      // A value the list does not know is dropped rather than failing the page: the menu could not show it anyway.
      return paramValues(params, name).filter((v) => field.options.some((o) => o.value === v));
    case "choice":
      return paramValue(params, name) || (field.all ?? "");
  }
}

const isSet = (field: FilterField, value: Value): boolean =>
  Array.isArray(value) ? value.length > 0 : value !== "" && !(field.kind === "choice" && value === field.all);

export function defineUrlFilters<const D extends FilterFields>(fields: D): UrlFilters<D> {
  const entries = Object.entries(fields);
  const valueOf = (values: FilterValues<D>, name: string) => (values as Record<string, Value>)[name];
  const setFields = (values: FilterValues<D>) => entries.filter(([name, field]) => isSet(field, valueOf(values, name)));
  return {
    fields,
    parse: (params) =>
      ({
        ...Object.fromEntries(entries.map(([name, field]) => [name, parseField(field, params, name)])),
        page: pageParam(params),
      }) as FilterValues<D>,
    search: (values) =>
      searchOf({
        ...Object.fromEntries(setFields(values).map(([name]) => [name, valueOf(values, name)])),
        page: values.page > 1 ? values.page : undefined,
      }),
    activeCount: (values) =>
      setFields(values).filter(
        ([, field]) =>
          !(field.kind === "day" && field.after && isSet(fields[field.after], valueOf(values, field.after))),
      ).length,
    isFiltered: (values) => setFields(values).some(([, field]) => !(field.kind === "choice" && field.scope)),
  };
}
