import { startServer } from "../helpers/server";

export default async function globalSetup() {
  const server = await startServer();
  // Workers inherit the environment set here.
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
  };
}
