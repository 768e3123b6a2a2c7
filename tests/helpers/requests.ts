/** A form's fields as the browser sends them. */
export function formOf(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
}

/** What a loader or action answered: a thrown Response (a 401, a 403 page, a redirect) is an answer too. */
export async function answer(call: unknown): Promise<Response> {
  try {
    return (await call) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
