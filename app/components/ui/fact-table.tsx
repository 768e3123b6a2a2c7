import type { ReactNode } from "react";

/** A record's facts, one row each: a heading cell and its value. */
export function FactTable({ facts }: { facts: [label: string, value: ReactNode][] }) {
  return (
    <div className="table-scroll">
      <table className="data">
        <tbody>
          {facts.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
