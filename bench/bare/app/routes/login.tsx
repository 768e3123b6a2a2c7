import { Form } from "@remix-run/react";

export const meta = () => [{ title: "Bare login" }];

export default function Login() {
  return (
    <main>
      <h1>Login</h1>
      <Form method="post">
        <label>
          Username <input name="login" />
        </label>
        <label>
          Password <input name="password" type="password" />
        </label>
        <button type="submit">Login</button>
      </Form>
    </main>
  );
}
