"use client";

import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function DashboardError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error && "digest" in error ? String(error.digest) : null;
  return (
    <EmptyState
      icon={TriangleAlert}
      title="This page could not be loaded"
      action={<Button onClick={retry}>Try again</Button>}
    >
      Something went wrong on our side or the connection dropped. Try again; if it keeps failing, contact support
      {digest ? (
        <>
          {" "}
          and quote the reference <code className="rounded bg-slate-100 px-1">{digest}</code>
        </>
      ) : null}
      .
    </EmptyState>
  );
}
