import { json } from "@remix-run/node";
import { groupFor } from "~/domain/community";

export { GroupPage as default, groupMeta as meta } from "~/components/community/group-page";

export const loader = () => json({ group: groupFor("inpower") });
