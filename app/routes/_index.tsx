export { Home as default } from "~/components/community/home";

export const handle = { layout: "home" };
