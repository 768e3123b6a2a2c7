import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { contentMeta } from "~/components/content/content-page";
import { descriptionMeta } from "~/lib/description-meta";
import { contentPageLoader } from "~/services/content-loader.server";

export { ContentPage as default } from "~/components/content/content-page";

export const meta: MetaFunction = (args) => [...contentMeta(args), ...descriptionMeta(args.matches)];

export const handle = { layout: "logo-left" };

export const loader = ({ context }: LoaderFunctionArgs) => contentPageLoader(context, "terms-of-service");
