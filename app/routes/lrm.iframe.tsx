import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { framePageLoader } from "~/services/frame-pages.server";

export { LrmFrame as default } from "~/components/lrm/frame-pages";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Members area" }];

export const loader = ({ context }: LoaderFunctionArgs) => framePageLoader(context);
