import { env } from "@/server/env";
import type { TargetPolicy } from "./check-target";

export const targetPolicy = (): TargetPolicy => ({ allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_TARGETS });
