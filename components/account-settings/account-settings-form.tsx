"use client";

import { CircleCheck, Save } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { Button } from "@/components/ui/button";
import { describedBy, Field, TextField } from "@/components/ui/field";
import { fieldControl } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { canWrite, withAccount, type AccountChoice } from "@/lib/account";
import { cn } from "@/lib/cn";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { api } from "@/trpc/react";
import { groupTimeZones } from "./time-zones";

const POLL_MS = 2000;

const since = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

const linkClass = "font-medium underline underline-offset-2";

/**
 * The account's name and time zone: a form for owners and staff, the values for members. While the statistics
 * are being recounted after a time-zone change, the settings are asked for again every 2 s until it is done.
 */
export function AccountSettings({ account, timeZones }: { account: AccountChoice; timeZones: string[] }) {
  const [settings] = api.accounts.settings.useSuspenseQuery(
    { accountId: account.id },
    { refetchInterval: (query) => (query.state.data?.statisticsRebuildSince ? POLL_MS : false) },
  );
  const rebuilding = settings.statisticsRebuildSince !== null;
  // "Recounted" is said only after a recount was seen running here, not on every visit.
  const [sawRebuild, setSawRebuild] = useState(rebuilding);
  if (rebuilding && !sawRebuild) setSawRebuild(true);
  const recounted = sawRebuild && !rebuilding;
  const utils = api.useUtils();
  useEffect(() => {
    // Figures cached before the recount are of the old time zone's days.
    if (recounted) void utils.statistics.invalidate();
  }, [recounted, utils]);

  return (
    <div className="max-w-2xl space-y-6">
      <div role="status" aria-live="polite">
        {rebuilding ? (
          <div className="rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900">
            <p className="font-medium">Recounting statistics for the new time zone…</p>
            <p className="mt-0.5">
              Started {since.format(new Date(settings.statisticsRebuildSince!))} UTC. Until it finishes, the Statistics
              page may miss some figures; this page checks again every {POLL_MS / 1000} seconds.
            </p>
            <IndeterminateProgress label="Recounting statistics" />
          </div>
        ) : recounted ? (
          <div className="flex gap-2.5 rounded-md border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
            <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p>
              <span className="font-medium">Statistics recounted</span> in {settings.timeZone}.{" "}
              <Link className={linkClass} href={withAccount("/dashboard/statistics", account.id)}>
                See the statistics
              </Link>
            </p>
          </div>
        ) : null}
      </div>
      {canWrite(account) ? (
        <SettingsForm account={account} settings={settings} timeZones={timeZones} />
      ) : (
        <ReadOnlySettings settings={settings} />
      )}
    </div>
  );
}

type Settings = { id: string; name: string; timeZone: string; statisticsRebuildSince: string | null };

function SettingsForm({
  account,
  settings,
  timeZones,
}: {
  account: AccountChoice;
  settings: Settings;
  timeZones: string[];
}) {
  const [timeZone, setTimeZone] = useState(settings.timeZone);
  const router = useRouter();
  const utils = api.useUtils();
  const update = api.accounts.update.useMutation({
    onSuccess: (saved) => {
      // The answer says whether a recount started: the progress shows at once, before the next poll.
      utils.accounts.settings.setData({ accountId: account.id }, saved);
      toast.success(
        saved.statisticsRebuildSince && saved.timeZone !== settings.timeZone
          ? `Settings saved: statistics are being recounted in ${saved.timeZone}`
          : "Settings saved",
      );
      // The account switcher and the page titles show the name; they are rendered on the server.
      router.refresh();
    },
    onError: toastUnlessFieldErrors,
  });
  const errorOf = fieldErrors(update.error);
  // A zone the account has that this runtime does not list (an old alias) is still offered, so it stays selected.
  const names = timeZones.includes(settings.timeZone) ? timeZones : [...timeZones, settings.timeZone].sort();
  const zoneHint = "Statistics count calendar days in this zone. Changing it recounts the account's statistics.";
  const zoneError = errorOf("timeZone");

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    update.mutate({ accountId: account.id, name: String(data.get("name") ?? ""), timeZone });
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="settings-form-title"
      className="space-y-5 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="settings-form-title" className="text-base font-semibold text-slate-900">
        Account
      </h2>
      <TextField
        id="settings-name"
        name="name"
        label="Account name"
        defaultValue={settings.name}
        maxLength={100}
        required
        autoComplete="organization"
        error={errorOf("name")}
      />
      <Field id="settings-time-zone" label="Time zone" hint={zoneHint} error={zoneError}>
        <select
          id="settings-time-zone"
          name="timeZone"
          value={timeZone}
          onChange={(event) => setTimeZone(event.target.value)}
          aria-invalid={zoneError ? true : undefined}
          aria-describedby={describedBy("settings-time-zone", { hint: zoneHint, error: zoneError })}
          className={cn(fieldControl, "h-9 pr-8")}
        >
          {groupTimeZones(names).map(({ region, zones }) =>
            region === null ? (
              zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))
            ) : (
              <optgroup key={region} label={region}>
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </optgroup>
            ),
          )}
        </select>
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner /> : <Save aria-hidden className="size-4" />}
          Save
        </Button>
      </div>
    </form>
  );
}

function ReadOnlySettings({ settings }: { settings: Settings }) {
  return (
    <section
      aria-labelledby="settings-form-title"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="settings-form-title" className="text-base font-semibold text-slate-900">
        Account
      </h2>
      <ReadOnlyNotice what="settings" />
      <dl className="grid gap-4 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium text-slate-800">Account name</dt>
        <dd className="text-slate-700 max-sm:-mt-3">{settings.name}</dd>
        <dt className="font-medium text-slate-800">Time zone</dt>
        <dd className="text-slate-700 max-sm:-mt-3">
          {settings.timeZone}
          <span className="block text-xs text-slate-600">Statistics count calendar days in this zone.</span>
        </dd>
      </dl>
    </section>
  );
}

/** A bar that says "working" without saying how far: no aria-valuenow, so screen readers call it busy. */
function IndeterminateProgress({ label }: { label: string }) {
  return (
    <>
      <style>{`@keyframes settings-progress { 0% { transform: translateX(-100%); } 100% { transform: translateX(300%); } }`}</style>
      <div role="progressbar" aria-label={label} className="mt-3 h-1.5 w-full overflow-hidden rounded-full bg-blue-100">
        <div className="h-full w-1/3 animate-[settings-progress_1.4s_ease-in-out_infinite] rounded-full bg-blue-600 motion-reduce:w-full motion-reduce:animate-pulse" />
      </div>
    </>
  );
}
