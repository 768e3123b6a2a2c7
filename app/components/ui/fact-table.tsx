import type { ReactNode } from "react";

/** A record's facts, one row each: a heading cell and its value, the value under it on a narrow screen. */
export function FactTable({ facts }: { facts: [label: string, value: ReactNode][] }) {
  return (
    <table className="data data-facts">
      <tbody>
        {facts.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
