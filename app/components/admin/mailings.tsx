import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { DataTable, type Column } from "~/components/ui/record-table";
import type { mailingsAdminPage } from "~/services/mailings/admin-list.server";
import { AdminSection } from "~/components/admin/admin-section";

type Data = SerializeFrom<Awaited<ReturnType<typeof mailingsAdminPage>>>;
type Row = Data["rows"][number];

const CAPTION = "Letters mailed from the app";

const COLUMNS: Column<Row>[] = [
  { header: "Member", cell: (row) => <Link to={`/members/${row.userId}`}>{row.username}</Link> },
  { header: "To", rowHeader: true, cell: (row) => row.to },
  { header: "Round", cell: (row) => `${row.cause} · ${row.version} · ${row.round}` },
  {
    header: "State",
    cell: (row) => (
      <>
        {row.attention ? <strong>{row.state}</strong> : row.state}
        {row.reason ? `: ${row.reason}` : ""}
      </>
    ),
  },
  { header: "Tracking number", cell: (row) => row.tracking ?? "—" },
  { header: "Price", cell: (row) => row.cost },
  { header: "Made", cell: (row) => row.created },
  { header: "Last news", cell: (row) => row.lastNews ?? "—" },
];

/** /admin/mailings: every letter, its state, cost, member and round, the ones needing attention first. */
export function MailingsPage({ data }: { data: Data }) {
  const pageHref = (page: number) =>
    `/admin/mailings?${new URLSearchParams({ state: data.query.state, member: data.query.member, page: String(page) })}`;
  return (
    <AdminSection id="mailings-title" title={CAPTION}>
      <p className="lead">
        Letters refused by the mail house, returned to sender, not confirmed, or with no news for {data.lostAfterDays}{" "}
        days while on their way (lost) come first. The days before a letter counts as lost, the price per envelope and
        the return address are set in <Link to="/admin/settings">the settings</Link>.
      </p>
      <Form method="get" className="form form-inline" aria-label="Filter the letters">
        <div className="field">
          <label htmlFor="mailings-state">Letters</label>
          <select id="mailings-state" name="state" defaultValue={data.query.state}>
            {data.filters.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="mailings-member">Member's username</label>
          <input id="mailings-member" name="member" type="search" defaultValue={data.query.member} />
        </div>
        <button type="submit" className="button">
          Show
        </button>
      </Form>
      {data.rows.length === 0 ? (
        <p>No letter matches.</p>
      ) : (
        <DataTable caption={CAPTION} hiddenCaption rows={data.rows} columns={COLUMNS} />
      )}
      <nav aria-label="Pages of letters" className="pager">
        {data.previousPage ? <Link to={pageHref(data.previousPage)}>Previous</Link> : null}{" "}
        {data.nextPage ? <Link to={pageHref(data.nextPage)}>Next</Link> : null}
      </nav>
    </AdminSection>
  );
}
