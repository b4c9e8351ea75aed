import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PROBLEM_TYPES } from "@/server/http/problem-types";
import { InlineMarkdown } from "@/app/docs/markdown";

// Each page is the same for every visitor and changes only with a build: `next build` renders one per problem type and
// the server answers from that HTML. proxy.ts allows their inline scripts by hash; the paths are listed in
// PRERENDERED_PAGES (server/http/prerendered-pages.ts). A slug that names no problem type is a 404.
export const dynamic = "force-static";
export const dynamicParams = false;

export const generateStaticParams = () => [...PROBLEM_TYPES.keys()].map((slug) => ({ slug }));

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const problemType = PROBLEM_TYPES.get((await params).slug);
  return { title: problemType ? `Problem: ${problemType.title}` : "Unknown problem type" };
}

/** The page a problem's `type` names (`/problems/<code>`): when the platform answers it and what a client should do. */
export default async function ProblemTypePage({ params }: Props) {
  const { slug } = await params;
  const problemType = PROBLEM_TYPES.get(slug);
  if (!problemType) notFound();
  return (
    <main className="mx-auto max-w-2xl px-6 py-10">
      <p className="font-mono text-sm text-slate-500">/problems/{slug}</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900">{problemType.title}</h1>
      <p className="mt-1 text-sm text-slate-600">HTTP status {problemType.statuses.join(" or ")}</p>
      <h2 className="mt-6 text-lg font-semibold text-slate-900">When it happens</h2>
      <p className="mt-1 text-slate-700">
        <InlineMarkdown text={problemType.when} />
      </p>
      <h2 className="mt-6 text-lg font-semibold text-slate-900">What to do</h2>
      <p className="mt-1 text-slate-700">
        <InlineMarkdown text={problemType.action} />
      </p>
      <p className="mt-8 text-sm">
        <Link className="text-blue-700 underline" href="/docs" prefetch={false}>
          API reference
        </Link>
      </p>
    </main>
  );
}
