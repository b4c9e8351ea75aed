import { parseArgs } from "node:util";
import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { AppError } from "@/server/errors";
import { keyring } from "@/server/secrets/keyring";
import { resealStoredSecrets } from "@/server/secrets/reseal-stored-secrets";
import { createUser } from "@/server/services/accounts/create-user";
import { setUserPassword } from "@/server/services/accounts/set-user-password";

const usage = `Usage:
  npm run admin -- user:create --email E --password P (--account NAME | --account-id ID) [--staff] [--role owner|member]
  npm run admin -- user:password --email E --password P
                                       set a user's password; ends every dashboard session and access token of theirs
  npm run admin -- secrets:rotate      re-encrypt every stored secret under SECRETS_KEY, bound to its row (set the old key as
                                       SECRETS_KEY_PREVIOUS while it runs; remove it afterwards)`;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "secrets:rotate") {
    const count = await resealStoredSecrets(await getDb());
    console.log(
      `secrets:rotate: every secret is sealed under key ${keyring().current.id} (re-encrypted now: ` +
        `${count.webhookEndpoints} webhook endpoints, ${count.courierProfiles} courier profiles)`,
    );
    return 0;
  }
  if (command === "user:password") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, password: { type: "string" } },
      strict: true,
    });
    await migrate();
    const result = await setUserPassword(await getDb(), { email: values.email ?? "", password: values.password ?? "" });
    console.log(JSON.stringify({ ...result, sessionsEnded: true }));
    return 0;
  }
  if (command !== "user:create") {
    console.error(usage);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      account: { type: "string" },
      "account-id": { type: "string" },
      staff: { type: "boolean", default: false },
      role: { type: "string" },
      name: { type: "string" },
    },
    strict: true,
  });
  await migrate();
  const result = await createUser(await getDb(), {
    email: values.email ?? "",
    password: values.password ?? "",
    accountName: values.account,
    accountId: values["account-id"],
    staff: values.staff,
    role: values.role as "owner" | "member" | undefined,
    name: values.name,
  });
  console.log(JSON.stringify(result));
  return 0;
}

main()
  .catch((error: unknown) => {
    if (error instanceof AppError) {
      console.error(`error: ${error.message}`);
      for (const e of error.errors ?? []) console.error(`  ${e.field}: ${e.message}`);
    } else {
      console.error(error);
    }
    console.error(usage);
    return 1;
  })
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  });
