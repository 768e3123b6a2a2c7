import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { FilterActions, ListPager, ListSummary, sortable } from "~/components/admin/list-parts";
import {
  ErrorList,
  Field,
  FormErrors,
  formProps,
  SelectField,
  TextareaField,
  useSchemaForm,
} from "~/components/forms/fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { listSearch } from "~/domain/list-search";
import { MEMBERSHIP_STATUSES, membershipWords } from "~/domain/words";
import { countWords } from "~/domain/list-count";
import type { ListQuery } from "~/domain/listing";
import { formatDate } from "~/lib/format";
import type { memberList, memberListChoices } from "~/services/member-listing.server";
import { DataTable } from "~/components/ui/record-table";

type List = SerializeFrom<Awaited<ReturnType<typeof memberList>>> & {
  query: ListQuery;
  errors: Record<string, string>;
  choices: SerializeFrom<Awaited<ReturnType<typeof memberListChoices>>>;
};

const ROLES = [
  ["admin", "Admin"],
  ["nolCreator", "NoL creator"],
  ["nolTester", "NoL tester"],
  ["none", "No role"],
] as const;

const SORTABLE: [key: string, label: string][] = [
  ["username", "Username"],
  ["email", "E-mail"],
  ["name", "Name"],
  ["country", "Country"],
  ["status", "Membership"],
  ["plan", "Plan"],
];

/** The caption's words for the list's order. */
const SORT_WORDS: Record<string, string> = Object.fromEntries(
  [...SORTABLE, ["joined", "Joined"], ["seen", "Last seen"]].map(([key, label]) => [key, label!.toLowerCase()]),
);

/** A filter's value from the query, for the form's fields. */
function filterText(query: ListQuery, key: string, end?: "from" | "to"): string {
  const value = query.filters[key];
  if (value === undefined) return "";
  if (typeof value === "string") return end ? "" : value;
  return end ? (value[end] ?? "") : "";
}

function FilterSelect({
  name,
  label,
  query,
  options,
}: {
  name: string;
  label: string;
  query: ListQuery;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <div className="field">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} name={name} defaultValue={filterText(query, name)}>
        <option value="">Any</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function DateRange({ name, label, query }: { name: string; label: string; query: ListQuery }) {
  return (
    <fieldset className="date-range">
      <legend>{label}</legend>
      <label htmlFor={`filter-${name}-from`}>From</label>
      <input
        id={`filter-${name}-from`}
        name={`${name}_from`}
        type="date"
        defaultValue={filterText(query, name, "from")}
      />
      <label htmlFor={`filter-${name}-to`}>To</label>
      <input id={`filter-${name}-to`} name={`${name}_to`} type="date" defaultValue={filterText(query, name, "to")} />
    </fieldset>
  );
}

/** The filters: a GET form, so a view of the list is a link to bookmark and share. */
function MemberFilters({ list }: { list: List }) {
  const { query, choices } = list;
  const pairs = (rows: { value: string; label: string }[]) => rows.map((r) => [r.value, r.label] as const);
  return (
    <Form method="get" className="form list-filters" role="search" aria-label="Members">
      <div className="field">
        <label htmlFor="filter-q">Find a member</label>
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={filterText(query, "q")}
          placeholder="Name or e-mail"
        />
      </div>
      <FilterSelect name="role" label="Role" query={query} options={ROLES} />
      <FilterSelect
        name="status"
        label="Membership"
        query={query}
        options={[
          ...MEMBERSHIP_STATUSES.map((s) => [s, membershipWords(s)] as const),
          ["none", "No membership"] as const,
        ]}
      />
      <FilterSelect name="plan" label="Plan" query={query} options={pairs(choices.plans)} />
      <FilterSelect name="coupon" label="Coupon used" query={query} options={pairs(choices.coupons)} />
      <FilterSelect name="country" label="Country" query={query} options={pairs(choices.countries)} />
      <FilterSelect name="cause" label="Cause with a NoL" query={query} options={pairs(choices.causes)} />
      <DateRange name="joined" label="Joined" query={query} />
      <DateRange name="seen" label="Last seen" query={query} />
      <FilterActions query={query} clearHref="/members" />
    </Form>
  );
}

/** The label of a filter's choice ("Supporter membership" for "supporter"); the value where none is listed. */
function choiceLabel(rows: { value: string; label: string }[], value: string): string {
  return rows.find((r) => r.value === value)?.label ?? value;
}

/** /members: search, filter, sort and page through the members; act on some or all of them. */
export function MemberList({ list, lastResult }: { list: List; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/member-list").then((m) => m.bulkFormSchema), {
    lastResult,
    defaultValue: { scope: "selected" },
  });
  const { query, choices } = list;
  const search = listSearch(query);
  return (
    <section className="card card-wide" aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <p>
        <Link to="/members/import">Import members from a CSV file</Link>
      </p>
      <MemberFilters list={list} />
      <ListSummary list={list} one="member" many="members" exportHref={`/members/export.csv?${search}`} />
      <Form method="post" action={`/members?${search}`} className="form" {...formProps(form)}>
        <FormErrors form={form} />
        <DataTable
          label="Member list"
          caption={`Members, sorted by ${SORT_WORDS[query.sort] ?? query.sort}`}
          hiddenCaption
          rows={list.rows}
          columns={[
            {
              header: "Choose",
              unlabelled: true,
              cell: (m) => (
                <input
                  type="checkbox"
                  name={fields.ids.name}
                  value={m.id}
                  aria-label={`Choose ${String(m.username)}`}
                />
              ),
            },
            {
              ...sortable("username", "Username", query),
              cell: (m) => <Link to={`/members/${m.id}`}>{String(m.username)}</Link>,
            },
            { ...sortable("email", "E-mail", query), cell: (m) => String(m.email) },
            { ...sortable("name", "Name", query), cell: (m) => (m.name ? String(m.name) : "—") },
            {
              ...sortable("country", "Country", query),
              cell: (m) => (m.country ? choiceLabel(choices.countries, String(m.country)) : "—"),
            },
            {
              ...sortable("status", "Membership", query),
              cell: (m) => (m.setup ? membershipWords(m.status ? String(m.status) : null) : "Setup not finished"),
            },
            {
              ...sortable("plan", "Plan", query),
              cell: (m) => (m.plan ? choiceLabel(choices.plans, String(m.plan)) : "—"),
            },
            {
              header: "Roles",
              cell: (m) =>
                [m.admin && "Admin", m.nolCreator && "NoL creator", m.nolTester && "NoL tester"]
                  .filter(Boolean)
                  .join(", ") || "—",
            },
            { ...sortable("joined", "Joined", query), cell: (m) => formatDate(String(m.joined)) },
            { ...sortable("seen", "Last seen", query), cell: (m) => (m.seen ? formatDate(String(m.seen)) : "never") },
          ]}
        />
        {list.rows.length === 0 ? <p>No member matches these filters.</p> : null}
        <ErrorList id={fields.ids.errorId} errors={fields.ids.errors} />
        <ListPager search={search} previous={list.previous} next={list.next} />
        <fieldset className="bulk-actions">
          <legend>Act on members</legend>
          <SelectField meta={fields.action} label="What to do">
            <option value="">Choose…</option>
            <option value="set-nolCreator">Make NoL creator</option>
            <option value="clear-nolCreator">Remove NoL creator</option>
            <option value="set-nolTester">Make NoL tester</option>
            <option value="clear-nolTester">Remove NoL tester</option>
            <option value="email">Send an e-mail</option>
            <option value="grant-complimentary">Give a complimentary membership</option>
            <option value="export">Export as CSV</option>
          </SelectField>
          <SelectField meta={fields.scope} label="Which members">
            <option value="selected">Those ticked on this page</option>
            <option value="all">{`All that match: ${countWords(list.count)}`}</option>
          </SelectField>
          <Field meta={fields.subject} label="E-mail subject" hint="For an e-mail only." />
          <TextareaField meta={fields.body} label="E-mail text" rows={4} />
          <SelectField meta={fields.planId} label="Complimentary plan">
            <option value="">Choose…</option>
            {choices.plans.map((plan) => (
              <option key={plan.value} value={plan.value}>
                {plan.label}
              </option>
            ))}
          </SelectField>
          <Field meta={fields.endsOn} label="Complimentary until (optional)" type="date" />
          <Field meta={fields.note} label="Why it is given (optional)" />
          <div className="actions">
            <SubmitButton pendingText="Working…">Do it</SubmitButton>
          </div>
        </fieldset>
      </Form>
    </section>
  );
}
