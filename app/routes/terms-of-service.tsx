import type { LoaderFunctionArgs } from "@remix-run/node";
import { contentPageLoader } from "~/services/content-loader.server";

export { ContentPage as default, contentMeta as meta } from "~/components/content/content-page";

export const handle = { layout: "logo-left" };

export const loader = ({ context }: LoaderFunctionArgs) => contentPageLoader(context, "terms-of-service");
