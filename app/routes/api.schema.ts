import { json } from "@remix-run/node";
import { zodToJsonSchema } from "zod-to-json-schema";
import { publicEntities } from "~/domain/entities";
import { readOnly } from "~/lib/json-body.server";

const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Public entities",
  definitions: Object.fromEntries(
    Object.entries(publicEntities).map(([name, entity]) => {
      const { $schema: _dialect, ...definition } = zodToJsonSchema(entity, { $refStrategy: "none" });
      return [name, definition];
    }),
  ),
};

/** GET /api/schema: a JSON Schema description of the public entities of spec §3. */
export async function loader() {
  return json(schema, { headers: { "Cache-Control": "public, max-age=300" } });
}

export const action = readOnly;
