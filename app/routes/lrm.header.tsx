import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { framePageLoader } from "~/services/frame-pages.server";

export { LrmHeader as default } from "~/components/lrm/frame-pages";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Member" }];

export const loader = ({ context }: LoaderFunctionArgs) => framePageLoader(context);
