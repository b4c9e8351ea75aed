"use client";

import { QueryErrorResetBoundary } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { TriangleAlert } from "lucide-react";
import { Component, Suspense, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { Button } from "./button";
import { EmptyState } from "./empty-state";

type BoundaryProps = {
  resetKey: string;
  onReset: () => void;
  render: (error: unknown, retry: () => void) => ReactNode;
  children: ReactNode;
};
type BoundaryState = { failed: boolean; error: unknown; resetKey: string };

/** React catches render errors only in a class component. A new `resetKey` (other filters, another id) clears the error. */
class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { failed: false, error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, error: null, resetKey: props.resetKey };
  }

  retry = () => {
    this.props.onReset();
    this.setState({ failed: false, error: null });
  };

  render() {
    return this.state.failed ? this.props.render(this.state.error, this.retry) : this.props.children;
  }
}

type ApiFailure = { code: string | null; message: string; fields: { field: string; message: string }[] };

function failureOf(error: unknown): ApiFailure {
  if (!(error instanceof TRPCClientError)) return { code: null, message: "", fields: [] };
  const { data } = error as TRPCClientError<AppRouter>;
  return { code: data?.code ?? null, message: error.message, fields: data?.errors ?? [] };
}

/** Why a list or record is missing: what the server said when it refused, a generic sentence when it failed. */
export function QueryErrorState({ error, retry, what }: { error: unknown; retry: () => void; what: string }) {
  const failure = failureOf(error);
  const refused = failure.code === "BAD_REQUEST" || failure.code === "UNPROCESSABLE_CONTENT";
  return (
    <div role="alert">
      {/* A refusal answers the same again: only a failure is worth retrying. */}
      <EmptyState
        icon={TriangleAlert}
        title={`The ${what} could not be loaded`}
        action={refused || failure.fields.length > 0 ? null : <Button onClick={retry}>Try again</Button>}
      >
        {failure.fields.length > 0 ? (
          <>
            <p>Some filters are not valid; correct them above:</p>
            <ul className="mt-2 space-y-1 text-left">
              {failure.fields.map((f) => (
                <li key={f.field + f.message}>
                  <code className="rounded bg-slate-100 px-1">{f.field}</code> {f.message}
                </li>
              ))}
            </ul>
          </>
        ) : refused ? (
          failure.message
        ) : (
          "Something went wrong on our side or the connection dropped. Try again; if it keeps failing, contact support."
        )}
      </EmptyState>
    </div>
  );
}

/**
 * Loading, error and data states of a part of a page that reads queries with `useSuspenseQuery`. A record
 * that does not exist (or is another account's) and a refused read get states of their own when given.
 */
export function QueryBoundary({
  what,
  fallback,
  resetKey = "",
  notFound,
  forbidden,
  children,
}: {
  what: string;
  fallback: ReactNode;
  resetKey?: string;
  notFound?: ReactNode;
  forbidden?: ReactNode;
  children: ReactNode;
}) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          resetKey={resetKey}
          onReset={reset}
          render={(error, retry) => {
            const { code } = failureOf(error);
            if (code === "NOT_FOUND" && notFound) return notFound;
            if (code === "FORBIDDEN" && forbidden) return forbidden;
            return <QueryErrorState error={error} retry={retry} what={what} />;
          }}
        >
          <Suspense fallback={fallback}>{children}</Suspense>
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}
