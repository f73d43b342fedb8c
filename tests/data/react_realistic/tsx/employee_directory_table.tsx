// Employee Directory: a generic sortable, filterable, paginated data table with column toggles, row selection and CSV export
import { useMemo, useState } from 'react';
import type { ReactNode } from 'react';

type Department = 'Engineering' | 'Design' | 'Sales' | 'Marketing' | 'Support' | 'Finance';
type Status = 'active' | 'on leave' | 'contractor';

interface Employee {
  id: number;
  name: string;
  email: string;
  department: Department;
  role: string;
  location: string;
  salary: number;
  startDate: string;
  status: Status;
}

interface Column<T> {
  key: keyof T & string;
  header: string;
  sortable?: boolean;
  align?: 'left' | 'right';
  render?: (row: T) => ReactNode;
  toText?: (row: T) => string;
}

type SortState<T> = { key: keyof T & string; dir: 'asc' | 'desc' } | null;

interface DataTableProps<T extends { id: number }> {
  rows: T[];
  columns: Column<T>[];
  pageSize?: number;
  searchKeys: (keyof T & string)[];
  toolbar?: ReactNode;
}

const FIRST = ['Ava', 'Liam', 'Noah', 'Emma', 'Olivia', 'Mateo', 'Yuki', 'Aisha', 'Lucas', 'Sofia', 'Ravi', 'Chen', 'Nora', 'Omar', 'Ines', 'Felix'];
const LAST = ['Garcia', 'Kim', 'Novak', 'Okafor', 'Silva', 'Patel', 'Larsen', 'Moreau', 'Tanaka', 'Cohen', 'Rossi', 'Haddad'];
const DEPTS: Department[] = ['Engineering', 'Design', 'Sales', 'Marketing', 'Support', 'Finance'];
const ROLES: Record<Department, string[]> = {
  Engineering: ['Frontend Engineer', 'Backend Engineer', 'SRE', 'Engineering Manager'],
  Design: ['Product Designer', 'UX Researcher'],
  Sales: ['Account Executive', 'Sales Engineer'],
  Marketing: ['Content Lead', 'Growth Marketer'],
  Support: ['Support Specialist', 'Support Lead'],
  Finance: ['Accountant', 'FP&A Analyst'],
};
const CITIES = ['Berlin', 'Toronto', 'Austin', 'Lisbon', 'Remote', 'Singapore'];
const STATUSES: Status[] = ['active', 'active', 'active', 'on leave', 'contractor'];

function makeEmployees(n: number): Employee[] {
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T,>(arr: T[]): T => arr[Math.floor(rnd() * arr.length)];
  return Array.from({ length: n }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const department = pick(DEPTS);
    const year = 2015 + Math.floor(rnd() * 9);
    const month = String(1 + Math.floor(rnd() * 12)).padStart(2, '0');
    return {
      id: i + 1,
      name: `${first} ${last}`,
      email: `${first}.${last}${i}@example.com`.toLowerCase(),
      department,
      role: pick(ROLES[department]),
      location: pick(CITIES),
      salary: Math.round((55 + rnd() * 110) * 1000),
      startDate: `${year}-${month}-01`,
      status: pick(STATUSES),
    };
  });
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function toCsv<T>(rows: T[], columns: Column<T>[]): string {
  const escape = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const header = columns.map((c) => escape(c.header)).join(',');
  const body = rows.map((r) => columns.map((c) => escape(c.toText ? c.toText(r) : String(r[c.key]))).join(','));
  return [header, ...body].join('\n');
}

function DataTable<T extends { id: number }>({ rows, columns, pageSize = 10, searchKeys, toolbar }: DataTableProps<T>) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState<T>>(null);
  const [page, setPage] = useState(0);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<number>>(new Set());

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return rows;
    return rows.filter((r) => searchKeys.some((k) => String(r[k]).toLowerCase().includes(q)));
  }, [rows, query, searchKeys]);

  const sorted = useMemo(() => {
    if (!sort) return filtered;
    const copy = [...filtered];
    copy.sort((a, b) => compare(a[sort.key], b[sort.key]) * (sort.dir === 'asc' ? 1 : -1));
    return copy;
  }, [filtered, sort]);

  const pageCount = Math.max(1, Math.ceil(sorted.length / pageSize));
  const safePage = Math.min(page, pageCount - 1);
  const pageRows = sorted.slice(safePage * pageSize, safePage * pageSize + pageSize);
  const visibleColumns = columns.filter((c) => !hidden.has(c.key));
  const allOnPageSelected = pageRows.length > 0 && pageRows.every((r) => selected.has(r.id));

  const toggleSort = (key: keyof T & string) => {
    setSort((s) => (!s || s.key !== key ? { key, dir: 'asc' } : s.dir === 'asc' ? { key, dir: 'desc' } : null));
  };

  const togglePageSelection = () => {
    setSelected((s) => {
      const next = new Set(s);
      pageRows.forEach((r) => (allOnPageSelected ? next.delete(r.id) : next.add(r.id)));
      return next;
    });
  };

  const exportCsv = () => {
    const chosen = selected.size ? sorted.filter((r) => selected.has(r.id)) : sorted;
    const blob = new Blob([toCsv(chosen, visibleColumns)], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = 'export.csv';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="rounded-xl border border-gray-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center gap-3 border-b border-gray-200 p-4">
        <input
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setPage(0);
          }}
          placeholder="Search…"
          className="w-64 rounded-lg border border-gray-300 px-3 py-1.5 text-sm"
        />
        {toolbar}
        <details className="relative ml-auto">
          <summary className="cursor-pointer list-none rounded-lg border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50">Columns</summary>
          <div className="absolute right-0 z-10 mt-1 w-48 rounded-lg border border-gray-200 bg-white p-2 shadow-lg">
            {columns.map((c) => (
              <label key={c.key} className="flex items-center gap-2 px-1 py-0.5 text-sm">
                <input
                  type="checkbox"
                  checked={!hidden.has(c.key)}
                  onChange={() =>
                    setHidden((h) => {
                      const n = new Set(h);
                      if (n.has(c.key)) n.delete(c.key);
                      else n.add(c.key);
                      return n;
                    })
                  }
                />
                {c.header}
              </label>
            ))}
          </div>
        </details>
        <button onClick={exportCsv} className="rounded-lg bg-gray-900 px-3 py-1.5 text-sm text-white">
          Export {selected.size ? `${selected.size} selected` : 'all'} as CSV
        </button>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="bg-gray-50 text-xs uppercase text-gray-500">
            <tr>
              <th className="w-10 px-4 py-2">
                <input type="checkbox" checked={allOnPageSelected} onChange={togglePageSelection} aria-label="Select page" />
              </th>
              {visibleColumns.map((c) => (
                <th key={c.key} className={`px-4 py-2 font-semibold ${c.align === 'right' ? 'text-right' : 'text-left'}`}>
                  {c.sortable ? (
                    <button onClick={() => toggleSort(c.key)} className="inline-flex items-center gap-1 uppercase hover:text-gray-900">
                      {c.header}
                      <span className="text-[10px]">{sort?.key === c.key ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}</span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {pageRows.map((r) => (
              <tr key={r.id} className={`border-t border-gray-100 ${selected.has(r.id) ? 'bg-blue-50' : 'hover:bg-gray-50'}`}>
                <td className="px-4 py-2">
                  <input
                    type="checkbox"
                    checked={selected.has(r.id)}
                    onChange={() =>
                      setSelected((s) => {
                        const n = new Set(s);
                        if (n.has(r.id)) n.delete(r.id);
                        else n.add(r.id);
                        return n;
                      })
                    }
                    aria-label={`Select row ${r.id}`}
                  />
                </td>
                {visibleColumns.map((c) => (
                  <td key={c.key} className={`px-4 py-2 ${c.align === 'right' ? 'text-right tabular-nums' : ''}`}>
                    {c.render ? c.render(r) : String(r[c.key])}
                  </td>
                ))}
              </tr>
            ))}
            {pageRows.length === 0 && (
              <tr>
                <td colSpan={visibleColumns.length + 1} className="px-4 py-10 text-center text-gray-400">
                  No matching rows
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between border-t border-gray-200 px-4 py-3 text-sm text-gray-600">
        <span>
          {sorted.length === 0 ? 0 : safePage * pageSize + 1}–{Math.min(sorted.length, (safePage + 1) * pageSize)} of {sorted.length}
          {selected.size > 0 && ` · ${selected.size} selected`}
        </span>
        <div className="flex items-center gap-1">
          <button disabled={safePage === 0} onClick={() => setPage(0)} className="rounded px-2 py-1 hover:bg-gray-100 disabled:opacity-30">
            «
          </button>
          <button disabled={safePage === 0} onClick={() => setPage(safePage - 1)} className="rounded px-2 py-1 hover:bg-gray-100 disabled:opacity-30">
            ‹
          </button>
          <span className="px-2">
            Page {safePage + 1} / {pageCount}
          </span>
          <button disabled={safePage >= pageCount - 1} onClick={() => setPage(safePage + 1)} className="rounded px-2 py-1 hover:bg-gray-100 disabled:opacity-30">
            ›
          </button>
          <button disabled={safePage >= pageCount - 1} onClick={() => setPage(pageCount - 1)} className="rounded px-2 py-1 hover:bg-gray-100 disabled:opacity-30">
            »
          </button>
        </div>
      </div>
    </div>
  );
}

const STATUS_BADGE: Record<Status, string> = {
  active: 'bg-green-100 text-green-800',
  'on leave': 'bg-amber-100 text-amber-800',
  contractor: 'bg-sky-100 text-sky-800',
};

const ALL_EMPLOYEES = makeEmployees(137);

export default function App() {
  const [department, setDepartment] = useState<Department | 'All'>('All');

  const rows = useMemo(() => (department === 'All' ? ALL_EMPLOYEES : ALL_EMPLOYEES.filter((e) => e.department === department)), [department]);

  const payroll = rows.reduce((s, e) => s + e.salary, 0);

  const columns: Column<Employee>[] = [
    {
      key: 'name',
      header: 'Name',
      sortable: true,
      render: (e) => (
        <div>
          <div className="font-medium text-gray-900">{e.name}</div>
          <div className="text-xs text-gray-500">{e.email}</div>
        </div>
      ),
    },
    { key: 'department', header: 'Department', sortable: true },
    { key: 'role', header: 'Role', sortable: true },
    { key: 'location', header: 'Location', sortable: true },
    { key: 'startDate', header: 'Started', sortable: true },
    {
      key: 'salary',
      header: 'Salary',
      sortable: true,
      align: 'right',
      render: (e) => `$${e.salary.toLocaleString()}`,
      toText: (e) => String(e.salary),
    },
    {
      key: 'status',
      header: 'Status',
      sortable: true,
      render: (e) => <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${STATUS_BADGE[e.status]}`}>{e.status}</span>,
    },
  ];

  return (
    <div className="min-h-screen bg-gray-100 p-8">
      <div className="mx-auto max-w-7xl">
        <div className="mb-6 flex items-end justify-between">
          <div>
            <h1 className="text-2xl font-bold text-gray-900">People</h1>
            <p className="text-sm text-gray-500">
              {rows.length} employees · annual payroll ${payroll.toLocaleString()}
            </p>
          </div>
        </div>
        <DataTable
          rows={rows}
          columns={columns}
          pageSize={12}
          searchKeys={['name', 'email', 'role', 'location']}
          toolbar={
            <select value={department} onChange={(e) => setDepartment(e.target.value as Department | 'All')} className="rounded-lg border border-gray-300 px-2 py-1.5 text-sm">
              <option>All</option>
              {DEPTS.map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          }
        />
      </div>
    </div>
  );
}
