import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { FilterActions, ListPager, ListSummary, sortable } from "~/components/admin/list-parts";
import { RecordPage } from "~/components/admin/record-page";
import { RoundTimeline } from "~/components/nol/round-timeline";
import { textWithLinks } from "~/domain/links";
import { listSearch } from "~/domain/list-search";
import { countWords, type ListCount } from "~/domain/list-count";
import type { ListQuery } from "~/domain/listing";
import { formatDateTime } from "~/lib/format";
import type { recordViewInWords } from "~/services/record-words.server";
import { DataTable } from "~/components/ui/record-table";

type RecordView = SerializeFrom<ReturnType<typeof recordViewInWords>>;
type ListView = Extract<RecordView, { view: "list" }>;

const cellText = (value: unknown, c: { kind: string; wordsOf: Record<string, string> }) =>
  value === null || value === undefined || value === ""
    ? "—"
    : c.kind === "date"
      ? formatDateTime(String(value))
      : (c.wordsOf[String(value)] ?? String(value));

function filterValue(query: ListQuery, key: string, end?: "from" | "to") {
  const value = query.filters[key];
  if (value === undefined) return "";
  if (typeof value === "string") return end ? "" : value;
  return end ? (value[end] ?? "") : "";
}

/** The list's filters, one per shown column: a GET form, so a view is a link to keep. */
function ListFilters({ list }: { list: ListView }) {
  const query = list.query as ListQuery;
  return (
    <Form method="get" className="form list-filters" role="search" aria-label={list.title}>
      {list.columns.map((c) => {
        const id = `filter-${c.key}`;
        if (!c.filter) return null;
        if (c.filter.kind === "range") {
          return (
            <fieldset key={c.key} className="date-range">
              <legend>{c.label}</legend>
              <label htmlFor={`${id}-from`}>From</label>
              <input
                id={`${id}-from`}
                name={`${c.key}_from`}
                type="date"
                defaultValue={filterValue(query, c.key, "from")}
              />
              <label htmlFor={`${id}-to`}>To</label>
              <input id={`${id}-to`} name={`${c.key}_to`} type="date" defaultValue={filterValue(query, c.key, "to")} />
            </fieldset>
          );
        }
        const options =
          c.filter.kind === "boolean" ? ["yes", "no"] : c.filter.kind === "equals" ? (c.filter.options ?? null) : null;
        return (
          <div className="field" key={c.key}>
            <label htmlFor={id}>{c.label}</label>
            {options ? (
              <select id={id} name={c.key} defaultValue={filterValue(query, c.key)}>
                <option value="">Any</option>
                {options.map((o) => (
                  <option key={o} value={o}>
                    {c.wordsOf[o] ?? o}
                  </option>
                ))}
              </select>
            ) : (
              <input id={id} name={c.key} type="search" defaultValue={filterValue(query, c.key)} />
            )}
          </div>
        );
      })}
      <FilterActions query={query} clearHref={`/db/${list.name}`} />
    </Form>
  );
}

/** One kind of record: filters, sortable columns, keyset pages and the CSV export. */
function RecordList({ list }: { list: ListView }) {
  const query = list.query as ListQuery;
  const search = listSearch(query);
  return (
    <section className="card card-wide" aria-labelledby="db-list-title">
      <p>
        <Link to="/db">All records</Link>
      </p>
      <h1 id="db-list-title">{list.title}</h1>
      <ListFilters list={list} />
      <ListSummary list={list} one="record" many="records" exportHref={`/db/${list.name}/export.csv?${search}`} />
      {list.rows.length === 0 ? (
        <p>No record matches.</p>
      ) : (
        <DataTable
          label={list.title}
          rows={list.rows.map((row) => ({ ...row, id: String(row.id) }))}
          columns={list.columns.map((c) => ({
            ...(c.sortable ? sortable(c.key, c.label, query) : { header: c.label }),
            cell: (row: Record<string, unknown>) => {
              const member = c.member ? row[c.member] : null;
              return c.key === list.link ? (
                <Link to={`/db/${list.name}/${encodeURIComponent(String(row.id))}`}>{cellText(row[c.key], c)}</Link>
              ) : member && row[c.key] ? (
                <Link to={`/members/${encodeURIComponent(String(member))}`}>{String(row[c.key])}</Link>
              ) : (
                cellText(row[c.key], c)
              );
            },
          }))}
        />
      )}
      <ListPager search={search} previous={list.previous} next={list.next} />
    </section>
  );
}

function MailMessage({ message: m }: { message: Extract<RecordView, { view: "mail" }>["message"] }) {
  return (
    <RecordPage title={m.subject} titleId="mail-title" back={{ to: "/db/mail_outbox", label: "Mail outbox" }}>
      <p className="muted">
        To {m.to} · {formatDateTime(m.createdAt)} · {m.template ?? "mail"} · {m.status}
        {m.attempts > 1 ? ` after ${m.attempts} tries` : ""}
      </p>
      {m.lastError ? (
        <p className="muted">
          The mail server answered: <code>{m.lastError}</code>
        </p>
      ) : null}
      <pre className="mail">
        {textWithLinks(m.text).map((part, i) =>
          "href" in part ? (
            <a key={i} href={part.href}>
              {part.href}
            </a>
          ) : (
            part.text
          ),
        )}
      </pre>
    </RecordPage>
  );
}

/** How many records a kind holds: counted up to the cap, estimated far past it. */
function tableCount(count: ListCount) {
  return `${countWords(count)} ${count.n === 1 && !count.capped ? "record" : "records"}`;
}

/** /db and its record views, for admins. */
export function Records({ data }: { data: RecordView }) {
  if (data.view === "index") {
    return (
      <section className="card" aria-labelledby="db-title">
        <h1 id="db-title">Records</h1>
        <ul className="link-list">
          {data.tables.map((t) => (
            <li key={t.name}>
              <Link to={`/db/${t.name}`}>{t.title}</Link>
              <span className="muted"> · {tableCount(t.count)}</span>
            </li>
          ))}
        </ul>
      </section>
    );
  }
  if (data.view === "mail") return <MailMessage message={data.message} />;
  if (data.view === "record") {
    return (
      <RecordPage
        title={`${data.title}: ${data.id}`}
        titleId="record-title"
        back={{ to: `/db/${data.name}`, label: data.title }}
      >
        <dl className="details">
          {data.fields.map((f) => (
            <div key={f.key}>
              <dt>{f.label}</dt>
              <dd>{f.value ?? "—"}</dd>
            </div>
          ))}
        </dl>
        {"timeline" in data && data.timeline ? (
          <RoundTimeline
            timeline={data.timeline.view}
            trackingBase={data.timeline.trackingUrl}
            calendarHref={data.timeline.calendarHref}
            title={data.timeline.title}
          />
        ) : null}
      </RecordPage>
    );
  }
  return <RecordList list={data} />;
}
