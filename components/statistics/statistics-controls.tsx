"use client";

import { Filter, X } from "lucide-react";
import { useRef, useState } from "react";
import { FilterActions, FilterPanel } from "@/components/filter-panel";
import { Button } from "@/components/ui/button";
import { Field, TextField } from "@/components/ui/field";
import { MultiSelect } from "@/components/ui/multi-select";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import type { AccountChoice } from "@/lib/account";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { api } from "@/trpc/react";
import { daysBetween, type Grouping } from "./period";
import {
  activeFilterCount,
  DIMENSIONS,
  dimensionLabel,
  GROUPINGS,
  groupingLabel,
  statisticsSearch,
  type Dimension,
  type PeriodChoice,
  type StatisticsFilters,
} from "./statistics-params";
import { ToggleGroup } from "./toggle-group";

/** Radix Select items cannot have an empty value: this one stands for "any source pair". */
const ANY = "__any__";
const MAX_SPAN_DAYS = 366;

const periodOptions: { value: PeriodChoice; label: string }[] = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "custom", label: "Custom" },
];

/**
 * What the Statistics page shows: the period, the grouping and the breakdown apply as soon as they are picked;
 * the filters (source pair, courier, profile) and a custom period apply on submit. Everything goes to the URL.
 */
export function StatisticsControls({
  account,
  filters,
  range,
}: {
  account: AccountChoice;
  filters: StatisticsFilters;
  range: { from: string; to: string };
}) {
  const { navigate, isPending } = useSearchNavigation();
  // Which button was pressed (`groupBy:week`), so it shows a spinner while the figures load.
  const [target, setTarget] = useState<string | null>(null);
  // "Custom" opens the day inputs; the period changes once they are submitted.
  const [customPicked, setCustomPicked] = useState(false);
  const customOpen = customPicked || filters.period === "custom";
  const go = (changes: Partial<StatisticsFilters>, pressed: string | null = null) => {
    setTarget(pressed);
    navigate(statisticsSearch({ ...filters, ...changes }));
  };
  const pendingOf = <T extends string>(control: string): T | null =>
    isPending && target?.startsWith(`${control}:`) ? (target.slice(control.length + 1) as T) : null;
  const period: PeriodChoice = customOpen ? "custom" : filters.period;

  return (
    <div className="mb-6 space-y-4">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-4">
        <ToggleGroup
          label="Period"
          options={periodOptions}
          value={period}
          pending={pendingOf<PeriodChoice>("period")}
          onChange={(value) => {
            if (value === "custom") {
              setCustomPicked(true);
              // The day inputs appear under the row: focus goes to the first, where the next step is.
              setTimeout(() => document.getElementById("statistics-from")?.focus(), 0);
              return;
            }
            setCustomPicked(false);
            if (value !== filters.period) go({ period: value, from: "", to: "" }, `period:${value}`);
          }}
        />
        <ToggleGroup
          label="Group by"
          options={GROUPINGS.map((g) => ({ value: g, label: groupingLabel[g] }))}
          value={filters.groupBy}
          pending={pendingOf<Grouping>("groupBy")}
          onChange={(groupBy: Grouping) => {
            if (groupBy !== filters.groupBy) go({ groupBy }, `groupBy:${groupBy}`);
          }}
        />
        <div className="w-full sm:w-52">
          <Field id="statistics-by" label="Break down by">
            <Select
              value={filters.by}
              onValueChange={(by) => {
                if (by !== filters.by) go({ by: by as Dimension }, `by:${by}`);
              }}
            >
              <SelectTrigger id="statistics-by" />
              <SelectContent>
                {DIMENSIONS.map((d) => (
                  <SelectItem key={d} value={d}>
                    {dimensionLabel[d]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        </div>
        {/* Always there, so screen readers hear "Updating…" appear. */}
        <span role="status" className="flex h-9 items-center gap-2 text-sm text-slate-600 empty:sr-only">
          {isPending ? (
            <>
              <Spinner /> Updating the figures…
            </>
          ) : null}
        </span>
      </div>
      {customOpen ? (
        <CustomPeriodForm
          key={`${range.from}:${range.to}`}
          range={range}
          pending={isPending}
          onSubmit={(from, to) => go({ period: "custom", from, to }, "period:custom")}
        />
      ) : null}
      <StatisticsFilterForm
        key={JSON.stringify([
          filters.referenceSource,
          filters.sourceIdentifier,
          filters.courier,
          filters.courierProfile,
        ])}
        account={account}
        filters={filters}
        pending={isPending}
        onApply={(changes) => go(changes, "filters:")}
      />
    </div>
  );
}

function CustomPeriodForm({
  range,
  pending,
  onSubmit,
}: {
  range: { from: string; to: string };
  pending: boolean;
  onSubmit: (from: string, to: string) => void;
}) {
  const [error, setError] = useState<{ field: "from" | "to"; message: string }>();
  const form = useRef<HTMLFormElement>(null);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const from = String(data.get("from") ?? "");
    const to = String(data.get("to") ?? "");
    // Caught here so the message sits at its input; the server would refuse the range all the same.
    const problem: typeof error = !from
      ? { field: "from", message: "Pick the first day." }
      : !to
        ? { field: "to", message: "Pick the last day." }
        : from > to
          ? { field: "to", message: "Must not be before “From”." }
          : daysBetween(from, to) > MAX_SPAN_DAYS
            ? { field: "to", message: `Must be at most ${MAX_SPAN_DAYS} days after “From”.` }
            : undefined;
    setError(problem);
    if (problem) {
      form.current?.querySelector<HTMLInputElement>(`[name="${problem.field}"]`)?.focus();
      return;
    }
    onSubmit(from, to);
  }

  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-label="Custom period"
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[12rem_12rem_auto] sm:items-start"
    >
      <TextField
        id="statistics-from"
        name="from"
        type="date"
        label="From"
        defaultValue={range.from}
        error={error?.field === "from" ? error.message : undefined}
      />
      <TextField
        id="statistics-to"
        name="to"
        type="date"
        label="To"
        defaultValue={range.to}
        error={error?.field === "to" ? error.message : undefined}
      />
      <Button type="submit" className="sm:mt-6" disabled={pending}>
        {pending ? <Spinner /> : null}
        Show period
      </Button>
    </form>
  );
}

const pairValue = (referenceSource: string, sourceIdentifier: string) =>
  JSON.stringify([referenceSource, sourceIdentifier]);

function StatisticsFilterForm({
  account,
  filters,
  pending,
  onApply,
}: {
  account: AccountChoice;
  filters: StatisticsFilters;
  pending: boolean;
  onApply: (
    changes: Pick<StatisticsFilters, "referenceSource" | "sourceIdentifier" | "courier" | "courierProfile">,
  ) => void;
}) {
  const [sources] = api.sources.list.useSuspenseQuery({ accountId: account.id });
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId: account.id });
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [pair, setPair] = useState(
    filters.referenceSource ? pairValue(filters.referenceSource, filters.sourceIdentifier) : ANY,
  );
  const [courier, setCourier] = useState(filters.courier);
  const [courierProfile, setCourierProfile] = useState(filters.courierProfile);

  const pairs: { referenceSource: string; sourceIdentifier: string; name: string | null }[] = [
    { referenceSource: "api", sourceIdentifier: "default", name: "Orders that name no source" },
    ...sources.items,
  ];
  // A pair in the link that is no longer active is still offered, so the select shows what is applied.
  if (filters.referenceSource && !pairs.some((p) => pairValue(p.referenceSource, p.sourceIdentifier) === pair))
    pairs.push({ referenceSource: filters.referenceSource, sourceIdentifier: filters.sourceIdentifier, name: null });
  const courierOptions = couriers.map((c) => ({ value: c.id, label: c.name }));
  for (const id of filters.courier)
    if (!courierOptions.some((o) => o.value === id)) courierOptions.push({ value: id, label: id });
  const profileOptions = profiles.items.map((p) => ({ value: p.id, label: p.name }));
  for (const id of filters.courierProfile)
    if (!profileOptions.some((o) => o.value === id))
      profileOptions.push({ value: id, label: `Deleted profile ${id.slice(0, 8)}` });

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const [referenceSource, sourceIdentifier] = pair === ANY ? ["", ""] : (JSON.parse(pair) as [string, string]);
    onApply({ referenceSource, sourceIdentifier, courier, courierProfile });
  }

  const active = activeFilterCount(filters);
  return (
    <FilterPanel label="Filter statistics" active={active} onSubmit={submit}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field id="statistics-pair" label="Source pair">
          <Select value={pair} onValueChange={setPair}>
            <SelectTrigger id="statistics-pair" />
            <SelectContent>
              <SelectItem value={ANY}>Any source pair</SelectItem>
              {pairs.map((p) => (
                <SelectItem
                  key={pairValue(p.referenceSource, p.sourceIdentifier)}
                  value={pairValue(p.referenceSource, p.sourceIdentifier)}
                  description={p.name ?? undefined}
                >
                  {`${p.referenceSource} / ${p.sourceIdentifier}`}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
        <MultiSelect
          id="statistics-courier"
          label="Courier"
          options={courierOptions}
          value={courier}
          onChange={setCourier}
          anyLabel="Any courier"
        />
        <MultiSelect
          id="statistics-profile"
          label="Courier profile"
          options={profileOptions}
          value={courierProfile}
          onChange={setCourierProfile}
          anyLabel="Any profile"
        />
        <FilterActions>
          <Button type="submit" disabled={pending}>
            {pending ? <Spinner /> : <Filter aria-hidden className="size-4" />}
            Apply filters
          </Button>
          {active > 0 ? (
            <Button
              variant="ghost"
              disabled={pending}
              onClick={() => onApply({ referenceSource: "", sourceIdentifier: "", courier: [], courierProfile: [] })}
            >
              <X aria-hidden className="size-4" />
              Clear
            </Button>
          ) : null}
        </FilterActions>
      </div>
    </FilterPanel>
  );
}
