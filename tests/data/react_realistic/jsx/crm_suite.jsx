// Relay CRM: multi-view sales CRM with dashboard, contacts table and drawer, drag-and-drop deal pipeline, tasks, reports, settings and a command palette
import { useState, useEffect, useMemo, useReducer, useRef, useCallback } from 'react';
import {
  LayoutDashboard, Users, KanbanSquare, CheckSquare, BarChart3, Settings, Search, Plus, X, Mail, Phone, Building2,
  ChevronLeft, ChevronRight, ArrowUpDown, Trash2, Pencil, Calendar, DollarSign, TrendingUp, Target, Bell, Command,
  Star, MessageSquare, Clock, CheckCircle2, Circle, AlertCircle, Download, LogOut,
} from 'lucide-react';
import {
  AreaChart, Area, BarChart, Bar, PieChart, Pie, Cell, LineChart, Line, XAxis, YAxis, CartesianGrid, Tooltip, Legend, ResponsiveContainer,
} from 'recharts';

/* ------------------------------------------------------------------ */
/* Constants and seed data                                             */
/* ------------------------------------------------------------------ */

const STORAGE_KEY = 'relay-crm-state-v2';

const STAGES = [
  { id: 'lead', label: 'Lead', color: '#94a3b8', probability: 0.1 },
  { id: 'qualified', label: 'Qualified', color: '#60a5fa', probability: 0.25 },
  { id: 'proposal', label: 'Proposal', color: '#a78bfa', probability: 0.5 },
  { id: 'negotiation', label: 'Negotiation', color: '#f59e0b', probability: 0.75 },
  { id: 'won', label: 'Won', color: '#10b981', probability: 1 },
  { id: 'lost', label: 'Lost', color: '#ef4444', probability: 0 },
];

const OWNERS = ['Maya Chen', 'Tom Alvarez', 'Sara Lindqvist', 'Kofi Mensah'];
const SOURCES = ['Website', 'Referral', 'Outbound', 'Event', 'Partner'];
const COMPANIES = [
  'Brightside Labs', 'Fieldnote', 'Parcelly', 'Orbital Foods', 'Kitewave', 'Northwind Traders', 'Harbor & Pine', 'Quanta Health',
  'Meridian Legal', 'Bluebird Travel', 'Copperline', 'Tessellate', 'Greenway Energy', 'Atlas Robotics', 'Lumen Studio', 'Sundial Media',
];
const FIRST = ['Ava', 'Noah', 'Liam', 'Emma', 'Zara', 'Ethan', 'Mia', 'Lucas', 'Isla', 'Omar', 'Priya', 'Jonas', 'Chloe', 'Diego', 'Hana', 'Felix', 'Nina', 'Arjun'];
const LAST = ['Patel', 'Nguyen', 'Kowalski', 'Okafor', 'Schmidt', 'Rossi', 'Tanaka', 'Murphy', 'Haddad', 'Silva', 'Berg', 'Dubois'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function seededRandom(seed) {
  let s = seed;
  return () => {
    s = (s * 48271) % 2147483647;
    return s / 2147483647;
  };
}

function daysFromNow(n) {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return d.toISOString().slice(0, 10);
}

function buildSeed() {
  const rand = seededRandom(20240611);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const contacts = Array.from({ length: 36 }, (_, i) => {
    const first = FIRST[i % FIRST.length];
    const last = LAST[(i * 5) % LAST.length];
    const company = COMPANIES[(i * 7) % COMPANIES.length];
    return {
      id: `ct${i + 1}`,
      name: `${first} ${last}`,
      email: `${first}.${last}@${company.toLowerCase().replace(/[^a-z]/g, '')}.com`.toLowerCase(),
      phone: `+1 (555) ${String(200 + i * 13).slice(-3)}-${String(1000 + i * 277).slice(-4)}`,
      company,
      title: pick(['CEO', 'Head of Ops', 'VP Sales', 'Product Manager', 'CTO', 'Procurement Lead', 'Founder']),
      owner: OWNERS[i % OWNERS.length],
      source: pick(SOURCES),
      status: pick(['active', 'active', 'active', 'nurture', 'churned']),
      starred: i % 9 === 0,
      createdAt: daysFromNow(-Math.floor(rand() * 300)),
      lastContacted: daysFromNow(-Math.floor(rand() * 40)),
    };
  });
  const deals = Array.from({ length: 28 }, (_, i) => {
    const contact = contacts[(i * 3) % contacts.length];
    const stage = STAGES[Math.floor(rand() * STAGES.length)].id;
    const month = Math.floor(rand() * 12);
    return {
      id: `dl${i + 1}`,
      title: `${contact.company} — ${pick(['Annual licence', 'Pilot', 'Expansion', 'Renewal', 'Onboarding package'])}`,
      contactId: contact.id,
      value: Math.round((2 + rand() * 48) * 1000),
      stage,
      owner: contact.owner,
      source: contact.source,
      closeDate: `2024-${String(month + 1).padStart(2, '0')}-${String(1 + Math.floor(rand() * 27)).padStart(2, '0')}`,
      createdAt: daysFromNow(-Math.floor(rand() * 200)),
    };
  });
  const tasks = [
    { id: 'tk1', title: 'Send proposal to Fieldnote', due: daysFromNow(-1), done: false, contactId: 'ct2', priority: 'high' },
    { id: 'tk2', title: 'Follow up on pilot feedback', due: daysFromNow(0), done: false, contactId: 'ct5', priority: 'medium' },
    { id: 'tk3', title: 'Prepare QBR deck', due: daysFromNow(2), done: false, contactId: 'ct8', priority: 'high' },
    { id: 'tk4', title: 'Intro call with new lead', due: daysFromNow(4), done: false, contactId: 'ct11', priority: 'low' },
    { id: 'tk5', title: 'Update contract redlines', due: daysFromNow(-3), done: true, contactId: 'ct14', priority: 'medium' },
    { id: 'tk6', title: 'Book onsite demo', due: daysFromNow(7), done: false, contactId: 'ct3', priority: 'medium' },
  ];
  const activities = contacts.slice(0, 12).flatMap((c, i) => [
    { id: `ac${i}a`, contactId: c.id, kind: 'email', text: 'Sent pricing overview', at: Date.now() - (i + 1) * 86400000 },
    { id: `ac${i}b`, contactId: c.id, kind: 'call', text: 'Discovery call, 25 minutes', at: Date.now() - (i + 3) * 86400000 },
  ]);
  return {
    contacts,
    deals,
    tasks,
    activities,
    settings: { name: 'Maya Chen', email: 'maya@relay.io', currency: 'USD', emailDigest: true, dealAlerts: true, compact: false },
  };
}

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

function crmReducer(state, action) {
  switch (action.type) {
    case 'contact/save': {
      const exists = state.contacts.some((c) => c.id === action.contact.id);
      return {
        ...state,
        contacts: exists
          ? state.contacts.map((c) => (c.id === action.contact.id ? action.contact : c))
          : [{ ...action.contact, id: `ct${Date.now()}`, createdAt: daysFromNow(0), lastContacted: daysFromNow(0) }, ...state.contacts],
      };
    }
    case 'contact/delete':
      return {
        ...state,
        contacts: state.contacts.filter((c) => c.id !== action.id),
        deals: state.deals.filter((d) => d.contactId !== action.id),
        tasks: state.tasks.filter((t) => t.contactId !== action.id),
      };
    case 'contact/star':
      return { ...state, contacts: state.contacts.map((c) => (c.id === action.id ? { ...c, starred: !c.starred } : c)) };
    case 'deal/save': {
      const exists = state.deals.some((d) => d.id === action.deal.id);
      return {
        ...state,
        deals: exists ? state.deals.map((d) => (d.id === action.deal.id ? action.deal : d)) : [...state.deals, { ...action.deal, id: `dl${Date.now()}`, createdAt: daysFromNow(0) }],
      };
    }
    case 'deal/move':
      return { ...state, deals: state.deals.map((d) => (d.id === action.id ? { ...d, stage: action.stage } : d)) };
    case 'deal/delete':
      return { ...state, deals: state.deals.filter((d) => d.id !== action.id) };
    case 'task/add':
      return { ...state, tasks: [...state.tasks, { ...action.task, id: `tk${Date.now()}`, done: false }] };
    case 'task/toggle':
      return { ...state, tasks: state.tasks.map((t) => (t.id === action.id ? { ...t, done: !t.done } : t)) };
    case 'task/delete':
      return { ...state, tasks: state.tasks.filter((t) => t.id !== action.id) };
    case 'activity/log':
      return {
        ...state,
        activities: [{ ...action.activity, id: `ac${Date.now()}`, at: Date.now() }, ...state.activities],
        contacts: state.contacts.map((c) => (c.id === action.activity.contactId ? { ...c, lastContacted: daysFromNow(0) } : c)),
      };
    case 'settings/update':
      return { ...state, settings: { ...state.settings, ...action.patch } };
    case 'reset':
      return buildSeed();
    default:
      return state;
  }
}

function usePersistentReducer(reducer, key, init) {
  const [state, dispatch] = useReducer(reducer, undefined, () => {
    try {
      const raw = window.localStorage.getItem(key);
      if (raw) {
        const parsed = JSON.parse(raw);
        if (parsed && Array.isArray(parsed.contacts) && Array.isArray(parsed.deals)) return parsed;
      }
    } catch {
      // fall through to the seed
    }
    return init();
  });
  useEffect(() => {
    const id = setTimeout(() => {
      try {
        window.localStorage.setItem(key, JSON.stringify(state));
      } catch {
        // storage full or blocked; the app keeps working in memory
      }
    }, 400);
    return () => clearTimeout(id);
  }, [key, state]);
  return [state, dispatch];
}

function useDebouncedValue(value, delay) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(id);
  }, [value, delay]);
  return debounced;
}

function useToasts() {
  const [toasts, setToasts] = useState([]);
  const timers = useRef([]);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((id) => clearTimeout(id));
  }, []);
  const push = useCallback((message, tone = 'default') => {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t, { id, message, tone }]);
    timers.current.push(setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), 3000));
  }, []);
  return { toasts, push };
}

/* ------------------------------------------------------------------ */
/* Small helpers and shared UI                                         */
/* ------------------------------------------------------------------ */

const AVATAR_COLORS = ['bg-rose-500', 'bg-amber-500', 'bg-emerald-500', 'bg-sky-500', 'bg-violet-500', 'bg-fuchsia-500', 'bg-teal-500'];

function initials(name) {
  return name.split(' ').map((p) => p[0]).join('').slice(0, 2).toUpperCase();
}

function avatarColor(name) {
  let h = 0;
  for (let i = 0; i < name.length; i += 1) h = (h * 31 + name.charCodeAt(i)) % 997;
  return AVATAR_COLORS[h % AVATAR_COLORS.length];
}

function makeMoney(currency) {
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 });
  return (n) => f.format(n);
}

function relativeDay(date) {
  const diff = Math.round((new Date(date + 'T00:00:00') - new Date(daysFromNow(0) + 'T00:00:00')) / 86400000);
  if (diff === 0) return 'today';
  if (diff === 1) return 'tomorrow';
  if (diff === -1) return 'yesterday';
  return diff < 0 ? `${-diff} days ago` : `in ${diff} days`;
}

function Avatar({ name, size = 'w-8 h-8 text-xs' }) {
  return <span className={`${size} ${avatarColor(name)} rounded-full text-white font-semibold flex items-center justify-center shrink-0`}>{initials(name)}</span>;
}

function Modal({ title, onClose, children, width = 'w-[560px]' }) {
  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-40 bg-slate-900/40 flex items-center justify-center" onMouseDown={onClose}>
      <div className={`${width} bg-white rounded-xl shadow-2xl`} onMouseDown={(e) => e.stopPropagation()}>
        <div className="flex items-center justify-between px-5 py-4 border-b border-slate-100">
          <h2 className="font-semibold text-slate-800">{title}</h2>
          <button onClick={onClose} className="text-slate-400 hover:text-slate-600" aria-label="Close"><X className="w-5 h-5" /></button>
        </div>
        <div className="p-5">{children}</div>
      </div>
    </div>
  );
}

function FormField({ label, error, children }) {
  return (
    <label className="block text-sm">
      <span className="text-slate-600 font-medium">{label}</span>
      <div className="mt-1">{children}</div>
      {error && <span className="text-xs text-rose-600 mt-0.5 block">{error}</span>}
    </label>
  );
}

const inputClass = (error) => `w-full rounded-lg border px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200 ${error ? 'border-rose-400' : 'border-slate-300'}`;

function StatCard({ icon: Icon, label, value, sub, tone }) {
  return (
    <div className="bg-white rounded-xl border border-slate-200 p-5">
      <div className="flex items-center justify-between">
        <p className="text-sm text-slate-500">{label}</p>
        <span className={`p-2 rounded-lg ${tone}`}><Icon className="w-4 h-4" /></span>
      </div>
      <p className="text-2xl font-bold text-slate-900 mt-2">{value}</p>
      {sub && <p className="text-xs text-slate-500 mt-1">{sub}</p>}
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Dashboard                                                           */
/* ------------------------------------------------------------------ */

function DashboardView({ state, money, onOpenContact, onNavigate }) {
  const { deals, tasks, contacts, activities } = state;
  const open = deals.filter((d) => d.stage !== 'won' && d.stage !== 'lost');
  const won = deals.filter((d) => d.stage === 'won');
  const lost = deals.filter((d) => d.stage === 'lost');
  const pipelineValue = open.reduce((s, d) => s + d.value, 0);
  const weighted = open.reduce((s, d) => s + d.value * (STAGES.find((st) => st.id === d.stage)?.probability || 0), 0);
  const winRate = won.length + lost.length ? Math.round((won.length / (won.length + lost.length)) * 100) : 0;
  const dueToday = tasks.filter((t) => !t.done && t.due <= daysFromNow(0));

  const monthly = useMemo(() => MONTHS.map((m, i) => {
    const inMonth = deals.filter((d) => Number(d.closeDate.slice(5, 7)) === i + 1);
    return {
      month: m,
      won: inMonth.filter((d) => d.stage === 'won').reduce((s, d) => s + d.value, 0),
      forecast: inMonth.filter((d) => d.stage !== 'lost').reduce((s, d) => s + d.value * (STAGES.find((st) => st.id === d.stage)?.probability || 0), 0),
    };
  }), [deals]);

  const byStage = STAGES.filter((s) => s.id !== 'lost').map((s) => ({ name: s.label, value: deals.filter((d) => d.stage === s.id).reduce((sum, d) => sum + d.value, 0), color: s.color }));
  const recent = activities.slice(0, 6);
  const contactName = (id) => contacts.find((c) => c.id === id)?.name || 'Unknown contact';

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-4 gap-4">
        <StatCard icon={DollarSign} label="Open pipeline" value={money(pipelineValue)} sub={`${open.length} open deals`} tone="bg-indigo-50 text-indigo-600" />
        <StatCard icon={Target} label="Weighted forecast" value={money(weighted)} sub="by stage probability" tone="bg-violet-50 text-violet-600" />
        <StatCard icon={TrendingUp} label="Win rate" value={`${winRate}%`} sub={`${won.length} won · ${lost.length} lost`} tone="bg-emerald-50 text-emerald-600" />
        <StatCard icon={CheckSquare} label="Tasks due" value={dueToday.length} sub="today or overdue" tone="bg-amber-50 text-amber-600" />
      </div>

      <div className="grid grid-cols-3 gap-4">
        <div className="col-span-2 bg-white rounded-xl border border-slate-200 p-5">
          <h3 className="font-semibold text-slate-800 mb-3">Revenue by close month</h3>
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <AreaChart data={monthly}>
                <defs>
                  <linearGradient id="wonFill" x1="0" y1="0" x2="0" y2="1">
                    <stop offset="0%" stopColor="#6366f1" stopOpacity={0.35} />
                    <stop offset="100%" stopColor="#6366f1" stopOpacity={0} />
                  </linearGradient>
                </defs>
                <CartesianGrid strokeDasharray="3 3" stroke="#f1f5f9" />
                <XAxis dataKey="month" tick={{ fontSize: 12 }} />
                <YAxis tickFormatter={(v) => `${Math.round(v / 1000)}k`} tick={{ fontSize: 12 }} width={40} />
                <Tooltip formatter={(v) => money(v)} />
                <Legend />
                <Area type="monotone" dataKey="won" name="Won" stroke="#6366f1" fill="url(#wonFill)" strokeWidth={2} />
                <Area type="monotone" dataKey="forecast" name="Weighted forecast" stroke="#a78bfa" fill="none" strokeDasharray="4 4" />
              </AreaChart>
            </ResponsiveContainer>
          </div>
        </div>
        <div className="bg-white rounded-xl border border-slate-200 p-5">
          <h3 className="font-semibold text-slate-800 mb-3">Value by stage</h3>
          <div className="h-48">
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie data={byStage} dataKey="value" nameKey="name" innerRadius={45} outerRadius={75} paddingAngle={2}>
                  {byStage.map((s) => <Cell key={s.name} fill={s.color} />)}
                </Pie>
                <Tooltip formatter={(v) => money(v)} />
              </PieChart>
            </ResponsiveContainer>
          </div>
          <ul className="space-y-1 text-sm mt-2">
            {byStage.map((s) => (
              <li key={s.name} className="flex justify-between"><span className="flex items-center gap-2"><span className="w-2 h-2 rounded-full" style={{ background: s.color }} />{s.name}</span><span className="text-slate-500">{money(s.value)}</span></li>
            ))}
          </ul>
        </div>
      </div>

      <div className="grid grid-cols-2 gap-4">
        <div className="bg-white rounded-xl border border-slate-200 p-5">
          <div className="flex items-center justify-between mb-3">
            <h3 className="font-semibold text-slate-800">Due soon</h3>
            <button onClick={() => onNavigate('tasks')} className="text-xs text-indigo-600 hover:underline">All tasks</button>
          </div>
          <ul className="space-y-2">
            {tasks.filter((t) => !t.done).sort((a, b) => a.due.localeCompare(b.due)).slice(0, 5).map((t) => (
              <li key={t.id} className="flex items-center gap-3 text-sm">
                {t.due < daysFromNow(0) ? <AlertCircle className="w-4 h-4 text-rose-500" /> : <Clock className="w-4 h-4 text-slate-400" />}
                <span className="flex-1">{t.title}</span>
                <span className={`text-xs ${t.due < daysFromNow(0) ? 'text-rose-600' : 'text-slate-500'}`}>{relativeDay(t.due)}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="bg-white rounded-xl border border-slate-200 p-5">
          <h3 className="font-semibold text-slate-800 mb-3">Recent activity</h3>
          <ul className="space-y-3">
            {recent.map((a) => (
              <li key={a.id} className="flex items-start gap-3 text-sm">
                <span className="mt-0.5 p-1.5 rounded-full bg-slate-100 text-slate-500">
                  {a.kind === 'email' ? <Mail className="w-3 h-3" /> : a.kind === 'call' ? <Phone className="w-3 h-3" /> : <MessageSquare className="w-3 h-3" />}
                </span>
                <div className="flex-1">
                  <button onClick={() => onOpenContact(a.contactId)} className="font-medium hover:underline">{contactName(a.contactId)}</button>
                  <p className="text-slate-500">{a.text}</p>
                </div>
                <span className="text-xs text-slate-400">{new Date(a.at).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Contacts                                                            */
/* ------------------------------------------------------------------ */

const EMPTY_CONTACT = { name: '', email: '', phone: '', company: '', title: '', owner: OWNERS[0], source: SOURCES[0], status: 'active', starred: false };

function validateContact(c, contacts) {
  const e = {};
  if (c.name.trim().split(/\s+/).length < 2) e.name = 'First and last name';
  if (!/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(c.email)) e.email = 'Valid email required';
  else if (contacts.some((x) => x.email.toLowerCase() === c.email.toLowerCase() && x.id !== c.id)) e.email = 'A contact with this email exists';
  if (c.phone && !/^[+\d][\d\s()-]{6,}$/.test(c.phone)) e.phone = 'Check the phone number';
  if (!c.company.trim()) e.company = 'Company is required';
  return e;
}

function ContactForm({ initial, contacts, onSave, onCancel }) {
  const [form, setForm] = useState(initial || EMPTY_CONTACT);
  const [errors, setErrors] = useState({});
  const set = (key) => (e) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = (e) => {
    e.preventDefault();
    const found = validateContact(form, contacts);
    setErrors(found);
    if (!Object.keys(found).length) onSave({ ...form, name: form.name.trim(), company: form.company.trim() });
  };
  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-2 gap-4">
      <FormField label="Full name" error={errors.name}><input value={form.name} onChange={set('name')} className={inputClass(errors.name)} /></FormField>
      <FormField label="Email" error={errors.email}><input value={form.email} onChange={set('email')} className={inputClass(errors.email)} /></FormField>
      <FormField label="Phone" error={errors.phone}><input value={form.phone} onChange={set('phone')} className={inputClass(errors.phone)} /></FormField>
      <FormField label="Job title"><input value={form.title} onChange={set('title')} className={inputClass()} /></FormField>
      <FormField label="Company" error={errors.company}><input value={form.company} onChange={set('company')} list="company-list" className={inputClass(errors.company)} /></FormField>
      <datalist id="company-list">{COMPANIES.map((c) => <option key={c} value={c} />)}</datalist>
      <FormField label="Owner"><select value={form.owner} onChange={set('owner')} className={inputClass()}>{OWNERS.map((o) => <option key={o}>{o}</option>)}</select></FormField>
      <FormField label="Source"><select value={form.source} onChange={set('source')} className={inputClass()}>{SOURCES.map((s) => <option key={s}>{s}</option>)}</select></FormField>
      <FormField label="Status"><select value={form.status} onChange={set('status')} className={inputClass()}>{['active', 'nurture', 'churned'].map((s) => <option key={s}>{s}</option>)}</select></FormField>
      <div className="col-span-2 flex justify-end gap-2 pt-2">
        <button type="button" onClick={onCancel} className="px-4 py-2 text-sm rounded-lg border border-slate-300">Cancel</button>
        <button className="px-4 py-2 text-sm rounded-lg bg-indigo-600 text-white font-medium">{initial ? 'Save contact' : 'Create contact'}</button>
      </div>
    </form>
  );
}

function ContactDrawer({ contact, state, money, dispatch, onEdit, onClose, notify }) {
  const [note, setNote] = useState('');
  const [kind, setKind] = useState('note');
  const deals = state.deals.filter((d) => d.contactId === contact.id);
  const timeline = state.activities.filter((a) => a.contactId === contact.id);
  const tasks = state.tasks.filter((t) => t.contactId === contact.id);

  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const log = (e) => {
    e.preventDefault();
    if (note.trim().length < 3) return;
    dispatch({ type: 'activity/log', activity: { contactId: contact.id, kind, text: note.trim() } });
    setNote('');
    notify('Activity logged');
  };

  return (
    <div className="fixed inset-0 z-30 flex justify-end bg-slate-900/20" onMouseDown={onClose}>
      <aside className="w-[440px] h-full bg-white shadow-2xl flex flex-col" onMouseDown={(e) => e.stopPropagation()}>
        <div className="p-5 border-b border-slate-100 flex items-start gap-4">
          <Avatar name={contact.name} size="w-14 h-14 text-lg" />
          <div className="flex-1 min-w-0">
            <h2 className="text-lg font-semibold truncate">{contact.name}</h2>
            <p className="text-sm text-slate-500">{contact.title} at {contact.company}</p>
            <div className="flex gap-2 mt-2">
              <button onClick={() => onEdit(contact)} className="text-xs flex items-center gap-1 px-2 py-1 rounded border border-slate-300"><Pencil className="w-3 h-3" /> Edit</button>
              <button onClick={() => dispatch({ type: 'contact/star', id: contact.id })} className="text-xs flex items-center gap-1 px-2 py-1 rounded border border-slate-300">
                <Star className={`w-3 h-3 ${contact.starred ? 'fill-amber-400 text-amber-400' : ''}`} /> {contact.starred ? 'Starred' : 'Star'}
              </button>
            </div>
          </div>
          <button onClick={onClose} aria-label="Close"><X className="w-5 h-5 text-slate-400" /></button>
        </div>
        <div className="flex-1 overflow-y-auto p-5 space-y-6">
          <dl className="grid grid-cols-3 gap-y-2 text-sm">
            <dt className="text-slate-500 flex items-center gap-1"><Mail className="w-3 h-3" /> Email</dt><dd className="col-span-2 truncate">{contact.email}</dd>
            <dt className="text-slate-500 flex items-center gap-1"><Phone className="w-3 h-3" /> Phone</dt><dd className="col-span-2">{contact.phone || '—'}</dd>
            <dt className="text-slate-500 flex items-center gap-1"><Building2 className="w-3 h-3" /> Owner</dt><dd className="col-span-2">{contact.owner}</dd>
            <dt className="text-slate-500 flex items-center gap-1"><Calendar className="w-3 h-3" /> Last touch</dt><dd className="col-span-2">{relativeDay(contact.lastContacted)}</dd>
          </dl>
          <section>
            <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 mb-2">Deals ({deals.length})</h3>
            {deals.length === 0 && <p className="text-sm text-slate-400">No deals yet.</p>}
            <ul className="space-y-2">
              {deals.map((d) => {
                const stage = STAGES.find((s) => s.id === d.stage);
                return (
                  <li key={d.id} className="flex items-center justify-between text-sm border border-slate-200 rounded-lg px-3 py-2">
                    <span className="truncate pr-2">{d.title}</span>
                    <span className="flex items-center gap-2 shrink-0"><span className="text-xs px-2 py-0.5 rounded-full text-white" style={{ background: stage.color }}>{stage.label}</span>{money(d.value)}</span>
                  </li>
                );
              })}
            </ul>
          </section>
          <section>
            <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 mb-2">Open tasks</h3>
            <ul className="space-y-1 text-sm">
              {tasks.filter((t) => !t.done).map((t) => <li key={t.id} className="flex justify-between"><span>{t.title}</span><span className="text-slate-400">{relativeDay(t.due)}</span></li>)}
              {tasks.filter((t) => !t.done).length === 0 && <li className="text-slate-400">Nothing open.</li>}
            </ul>
          </section>
          <section>
            <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 mb-2">Timeline</h3>
            <form onSubmit={log} className="mb-4">
              <div className="flex gap-1 mb-2">
                {['note', 'call', 'email'].map((k) => (
                  <button type="button" key={k} onClick={() => setKind(k)} className={`text-xs px-2 py-1 rounded capitalize ${kind === k ? 'bg-indigo-600 text-white' : 'bg-slate-100'}`}>{k}</button>
                ))}
              </div>
              <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={2} placeholder={`Log a ${kind}…`} className="w-full border border-slate-300 rounded-lg px-3 py-2 text-sm" />
              <button disabled={note.trim().length < 3} className="mt-1 text-sm px-3 py-1.5 rounded-lg bg-indigo-600 text-white disabled:opacity-40">Log activity</button>
            </form>
            <ol className="relative border-l border-slate-200 ml-2 space-y-4">
              {timeline.map((a) => (
                <li key={a.id} className="ml-4">
                  <span className="absolute -left-1.5 mt-1 w-3 h-3 rounded-full bg-indigo-200 border-2 border-white" />
                  <p className="text-sm"><span className="font-medium capitalize">{a.kind}</span> · {a.text}</p>
                  <p className="text-xs text-slate-400">{new Date(a.at).toLocaleString()}</p>
                </li>
              ))}
              {timeline.length === 0 && <li className="ml-4 text-sm text-slate-400">No activity logged.</li>}
            </ol>
          </section>
        </div>
      </aside>
    </div>
  );
}

const CONTACT_PAGE = 12;

function ContactsView({ state, dispatch, query, onOpenContact, onNewContact, notify }) {
  const [sort, setSort] = useState({ key: 'name', dir: 1 });
  const [owner, setOwner] = useState('all');
  const [status, setStatus] = useState('all');
  const [starredOnly, setStarredOnly] = useState(false);
  const [page, setPage] = useState(0);
  const debounced = useDebouncedValue(query, 200);

  const rows = useMemo(() => {
    const q = debounced.trim().toLowerCase();
    return state.contacts
      .filter((c) => (owner === 'all' || c.owner === owner) && (status === 'all' || c.status === status) && (!starredOnly || c.starred))
      .filter((c) => !q || [c.name, c.email, c.company].some((v) => v.toLowerCase().includes(q)))
      .sort((a, b) => String(a[sort.key]).localeCompare(String(b[sort.key])) * sort.dir);
  }, [state.contacts, owner, status, starredOnly, debounced, sort]);

  const pages = Math.max(1, Math.ceil(rows.length / CONTACT_PAGE));
  const current = Math.min(page, pages - 1);
  const visible = rows.slice(current * CONTACT_PAGE, (current + 1) * CONTACT_PAGE);
  const headers = [['name', 'Name'], ['company', 'Company'], ['owner', 'Owner'], ['status', 'Status'], ['lastContacted', 'Last contacted']];

  const exportCsv = () => {
    const csv = ['name,email,company,owner,status', ...rows.map((c) => [c.name, c.email, c.company, c.owner, c.status].join(','))].join('\n');
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'contacts.csv';
    a.click();
    URL.revokeObjectURL(url);
    notify(`Exported ${rows.length} contacts`);
  };

  return (
    <div className="bg-white rounded-xl border border-slate-200">
      <div className="p-4 flex items-center gap-3 border-b border-slate-100">
        <select value={owner} onChange={(e) => { setOwner(e.target.value); setPage(0); }} className="border border-slate-300 rounded-lg px-2 py-1.5 text-sm">
          <option value="all">All owners</option>
          {OWNERS.map((o) => <option key={o}>{o}</option>)}
        </select>
        <select value={status} onChange={(e) => { setStatus(e.target.value); setPage(0); }} className="border border-slate-300 rounded-lg px-2 py-1.5 text-sm">
          <option value="all">Any status</option>
          {['active', 'nurture', 'churned'].map((s) => <option key={s}>{s}</option>)}
        </select>
        <label className="text-sm flex items-center gap-1"><input type="checkbox" checked={starredOnly} onChange={(e) => setStarredOnly(e.target.checked)} /> Starred</label>
        <span className="text-sm text-slate-500 ml-2">{rows.length} contacts{debounced && ` matching “${debounced}”`}</span>
        <div className="ml-auto flex gap-2">
          <button onClick={exportCsv} className="text-sm flex items-center gap-1 px-3 py-1.5 rounded-lg border border-slate-300"><Download className="w-4 h-4" /> Export</button>
          <button onClick={onNewContact} className="text-sm flex items-center gap-1 px-3 py-1.5 rounded-lg bg-indigo-600 text-white"><Plus className="w-4 h-4" /> New contact</button>
        </div>
      </div>
      <table className="w-full text-sm">
        <thead className="bg-slate-50 text-slate-500 text-left">
          <tr>
            <th className="w-8" />
            {headers.map(([key, label]) => (
              <th key={key} className="px-3 py-2 font-medium">
                <button onClick={() => setSort((s) => ({ key, dir: s.key === key ? -s.dir : 1 }))} className="flex items-center gap-1">
                  {label}<ArrowUpDown className={`w-3 h-3 ${sort.key === key ? 'text-indigo-600' : 'text-slate-300'}`} />
                </button>
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {visible.map((c) => (
            <tr key={c.id} className="border-t border-slate-100 hover:bg-slate-50 cursor-pointer" onClick={() => onOpenContact(c.id)}>
              <td className="pl-3">
                <button onClick={(e) => { e.stopPropagation(); dispatch({ type: 'contact/star', id: c.id }); }} aria-label="Star contact">
                  <Star className={`w-4 h-4 ${c.starred ? 'fill-amber-400 text-amber-400' : 'text-slate-300'}`} />
                </button>
              </td>
              <td className="px-3 py-2">
                <div className="flex items-center gap-2"><Avatar name={c.name} /><div><p className="font-medium">{c.name}</p><p className="text-xs text-slate-500">{c.email}</p></div></div>
              </td>
              <td className="px-3 py-2">{c.company}</td>
              <td className="px-3 py-2 text-slate-600">{c.owner}</td>
              <td className="px-3 py-2">
                <span className={`text-xs px-2 py-0.5 rounded-full ${c.status === 'active' ? 'bg-emerald-50 text-emerald-700' : c.status === 'nurture' ? 'bg-amber-50 text-amber-700' : 'bg-slate-100 text-slate-500'}`}>{c.status}</span>
              </td>
              <td className="px-3 py-2 text-slate-500">{relativeDay(c.lastContacted)}</td>
              <td className="px-3 py-2 text-right">
                <button
                  onClick={(e) => {
                    e.stopPropagation();
                    if (window.confirm(`Delete ${c.name} and their deals?`)) { dispatch({ type: 'contact/delete', id: c.id }); notify(`Deleted ${c.name}`, 'danger'); }
                  }}
                  className="text-slate-300 hover:text-rose-600"
                  aria-label="Delete contact"
                >
                  <Trash2 className="w-4 h-4" />
                </button>
              </td>
            </tr>
          ))}
          {visible.length === 0 && <tr><td colSpan={7} className="text-center py-12 text-slate-400">No contacts found.</td></tr>}
        </tbody>
      </table>
      <div className="flex items-center justify-between px-4 py-3 border-t border-slate-100 text-sm text-slate-500">
        <span>Page {current + 1} of {pages}</span>
        <div className="flex gap-1">
          <button disabled={current === 0} onClick={() => setPage(current - 1)} className="p-1.5 rounded border border-slate-300 disabled:opacity-40" aria-label="Previous page"><ChevronLeft className="w-4 h-4" /></button>
          <button disabled={current >= pages - 1} onClick={() => setPage(current + 1)} className="p-1.5 rounded border border-slate-300 disabled:opacity-40" aria-label="Next page"><ChevronRight className="w-4 h-4" /></button>
        </div>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Pipeline                                                            */
/* ------------------------------------------------------------------ */

function DealForm({ initial, contacts, onSave, onCancel, onDelete }) {
  const [form, setForm] = useState(() => initial || { title: '', contactId: contacts[0]?.id || '', value: '', stage: 'lead', owner: OWNERS[0], source: SOURCES[0], closeDate: daysFromNow(30) });
  const [errors, setErrors] = useState({});
  const set = (key) => (e) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = (e) => {
    e.preventDefault();
    const found = {};
    if (form.title.trim().length < 4) found.title = 'Give the deal a descriptive name';
    const value = Number(form.value);
    if (!(value > 0)) found.value = 'Enter the deal value';
    if (!form.contactId) found.contactId = 'Choose a contact';
    if (!form.closeDate) found.closeDate = 'Expected close date';
    setErrors(found);
    if (!Object.keys(found).length) onSave({ ...form, title: form.title.trim(), value });
  };
  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-2 gap-4">
      <div className="col-span-2"><FormField label="Deal name" error={errors.title}><input value={form.title} onChange={set('title')} className={inputClass(errors.title)} /></FormField></div>
      <FormField label="Contact" error={errors.contactId}>
        <select value={form.contactId} onChange={set('contactId')} className={inputClass(errors.contactId)}>
          {contacts.map((c) => <option key={c.id} value={c.id}>{c.name} · {c.company}</option>)}
        </select>
      </FormField>
      <FormField label="Value" error={errors.value}><input value={form.value} onChange={set('value')} inputMode="numeric" className={inputClass(errors.value)} /></FormField>
      <FormField label="Stage"><select value={form.stage} onChange={set('stage')} className={inputClass()}>{STAGES.map((s) => <option key={s.id} value={s.id}>{s.label}</option>)}</select></FormField>
      <FormField label="Close date" error={errors.closeDate}><input type="date" value={form.closeDate} onChange={set('closeDate')} className={inputClass(errors.closeDate)} /></FormField>
      <FormField label="Owner"><select value={form.owner} onChange={set('owner')} className={inputClass()}>{OWNERS.map((o) => <option key={o}>{o}</option>)}</select></FormField>
      <FormField label="Source"><select value={form.source} onChange={set('source')} className={inputClass()}>{SOURCES.map((s) => <option key={s}>{s}</option>)}</select></FormField>
      <div className="col-span-2 flex justify-between pt-2">
        {onDelete ? <button type="button" onClick={onDelete} className="text-sm text-rose-600 hover:underline">Delete deal</button> : <span />}
        <div className="flex gap-2">
          <button type="button" onClick={onCancel} className="px-4 py-2 text-sm rounded-lg border border-slate-300">Cancel</button>
          <button className="px-4 py-2 text-sm rounded-lg bg-indigo-600 text-white font-medium">Save deal</button>
        </div>
      </div>
    </form>
  );
}

function PipelineView({ state, dispatch, money, query, notify }) {
  const [dragId, setDragId] = useState(null);
  const [overStage, setOverStage] = useState(null);
  const [editing, setEditing] = useState(null); // null | 'new' | deal
  const [ownerFilter, setOwnerFilter] = useState('all');
  const contactsById = useMemo(() => Object.fromEntries(state.contacts.map((c) => [c.id, c])), [state.contacts]);

  const deals = useMemo(() => {
    const q = query.trim().toLowerCase();
    return state.deals.filter((d) => (ownerFilter === 'all' || d.owner === ownerFilter) && (!q || d.title.toLowerCase().includes(q)));
  }, [state.deals, ownerFilter, query]);

  const onDrop = (stageId) => {
    if (!dragId) return;
    const deal = state.deals.find((d) => d.id === dragId);
    if (deal && deal.stage !== stageId) {
      dispatch({ type: 'deal/move', id: dragId, stage: stageId });
      notify(`Moved “${deal.title}” to ${STAGES.find((s) => s.id === stageId).label}`, stageId === 'won' ? 'success' : 'default');
    }
    setDragId(null);
    setOverStage(null);
  };

  return (
    <div className="flex flex-col h-full">
      <div className="flex items-center gap-3 mb-4">
        <select value={ownerFilter} onChange={(e) => setOwnerFilter(e.target.value)} className="border border-slate-300 rounded-lg px-2 py-1.5 text-sm bg-white">
          <option value="all">Everyone</option>
          {OWNERS.map((o) => <option key={o}>{o}</option>)}
        </select>
        <span className="text-sm text-slate-500">Drag cards between columns to update the stage.</span>
        <button onClick={() => setEditing('new')} className="ml-auto text-sm flex items-center gap-1 px-3 py-1.5 rounded-lg bg-indigo-600 text-white"><Plus className="w-4 h-4" /> New deal</button>
      </div>
      <div className="grid grid-cols-6 gap-3 flex-1 min-h-0">
        {STAGES.map((stage) => {
          const column = deals.filter((d) => d.stage === stage.id);
          const total = column.reduce((s, d) => s + d.value, 0);
          return (
            <div
              key={stage.id}
              onDragOver={(e) => { e.preventDefault(); setOverStage(stage.id); }}
              onDragLeave={() => setOverStage((s) => (s === stage.id ? null : s))}
              onDrop={() => onDrop(stage.id)}
              className={`rounded-xl p-2 flex flex-col min-h-0 transition ${overStage === stage.id ? 'bg-indigo-50 ring-2 ring-indigo-300' : 'bg-slate-100'}`}
            >
              <div className="px-1 pb-2">
                <p className="text-sm font-semibold flex items-center gap-2"><span className="w-2 h-2 rounded-full" style={{ background: stage.color }} />{stage.label} <span className="text-slate-400 font-normal">{column.length}</span></p>
                <p className="text-xs text-slate-500">{money(total)}</p>
              </div>
              <div className="space-y-2 overflow-y-auto flex-1">
                {column.map((d) => {
                  const contact = contactsById[d.contactId];
                  return (
                    <div
                      key={d.id}
                      draggable
                      onDragStart={() => setDragId(d.id)}
                      onDragEnd={() => { setDragId(null); setOverStage(null); }}
                      onClick={() => setEditing(d)}
                      className={`bg-white rounded-lg p-3 shadow-sm border border-slate-200 cursor-grab active:cursor-grabbing hover:border-indigo-300 ${dragId === d.id ? 'opacity-50' : ''}`}
                    >
                      <p className="text-sm font-medium leading-snug">{d.title}</p>
                      <p className="text-xs text-slate-500 mt-1">{contact ? contact.name : 'No contact'}</p>
                      <div className="flex items-center justify-between mt-2">
                        <span className="text-sm font-semibold">{money(d.value)}</span>
                        <Avatar name={d.owner} size="w-6 h-6 text-[10px]" />
                      </div>
                      <p className="text-[11px] text-slate-400 mt-1 flex items-center gap-1"><Calendar className="w-3 h-3" />{d.closeDate}</p>
                    </div>
                  );
                })}
                {column.length === 0 && <p className="text-xs text-slate-400 text-center py-6">Drop deals here</p>}
              </div>
            </div>
          );
        })}
      </div>
      {editing && (
        <Modal title={editing === 'new' ? 'New deal' : 'Edit deal'} onClose={() => setEditing(null)}>
          <DealForm
            initial={editing === 'new' ? null : editing}
            contacts={state.contacts}
            onCancel={() => setEditing(null)}
            onDelete={editing === 'new' ? null : () => { dispatch({ type: 'deal/delete', id: editing.id }); setEditing(null); notify('Deal deleted', 'danger'); }}
            onSave={(deal) => { dispatch({ type: 'deal/save', deal }); setEditing(null); notify('Deal saved', 'success'); }}
          />
        </Modal>
      )}
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Tasks                                                               */
/* ------------------------------------------------------------------ */

function TasksView({ state, dispatch, notify }) {
  const [title, setTitle] = useState('');
  const [due, setDue] = useState(daysFromNow(1));
  const [priority, setPriority] = useState('medium');
  const [contactId, setContactId] = useState(state.contacts[0]?.id || '');
  const [error, setError] = useState('');
  const [showDone, setShowDone] = useState(false);

  const groups = useMemo(() => {
    const today = daysFromNow(0);
    const list = state.tasks.filter((t) => showDone || !t.done).sort((a, b) => a.due.localeCompare(b.due));
    return [
      { id: 'overdue', label: 'Overdue', items: list.filter((t) => !t.done && t.due < today) },
      { id: 'today', label: 'Today', items: list.filter((t) => !t.done && t.due === today) },
      { id: 'upcoming', label: 'Upcoming', items: list.filter((t) => !t.done && t.due > today) },
      { id: 'done', label: 'Completed', items: list.filter((t) => t.done) },
    ].filter((g) => g.items.length);
  }, [state.tasks, showDone]);

  const add = (e) => {
    e.preventDefault();
    if (title.trim().length < 3) { setError('Describe the task (3+ characters)'); return; }
    if (!due) { setError('Pick a due date'); return; }
    dispatch({ type: 'task/add', task: { title: title.trim(), due, priority, contactId } });
    setTitle('');
    setError('');
    notify('Task added', 'success');
  };

  const contactName = (id) => state.contacts.find((c) => c.id === id)?.name;
  const PRIORITY_STYLE = { high: 'text-rose-600 bg-rose-50', medium: 'text-amber-600 bg-amber-50', low: 'text-slate-500 bg-slate-100' };

  return (
    <div className="max-w-3xl space-y-6">
      <form onSubmit={add} className="bg-white rounded-xl border border-slate-200 p-4 space-y-3">
        <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="What needs doing?" className={inputClass(error)} />
        <div className="flex gap-2">
          <input type="date" value={due} onChange={(e) => setDue(e.target.value)} className="border border-slate-300 rounded-lg px-2 py-1.5 text-sm" />
          <select value={priority} onChange={(e) => setPriority(e.target.value)} className="border border-slate-300 rounded-lg px-2 py-1.5 text-sm">
            {['high', 'medium', 'low'].map((p) => <option key={p} value={p}>{p} priority</option>)}
          </select>
          <select value={contactId} onChange={(e) => setContactId(e.target.value)} className="border border-slate-300 rounded-lg px-2 py-1.5 text-sm flex-1">
            {state.contacts.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </select>
          <button className="px-4 rounded-lg bg-indigo-600 text-white text-sm flex items-center gap-1"><Plus className="w-4 h-4" /> Add</button>
        </div>
        {error && <p className="text-xs text-rose-600">{error}</p>}
      </form>
      <label className="text-sm flex items-center gap-2 text-slate-600"><input type="checkbox" checked={showDone} onChange={(e) => setShowDone(e.target.checked)} /> Show completed</label>
      {groups.length === 0 && <p className="text-slate-400 text-sm">You are all caught up.</p>}
      {groups.map((g) => (
        <section key={g.id}>
          <h3 className={`text-xs font-semibold uppercase tracking-wide mb-2 ${g.id === 'overdue' ? 'text-rose-600' : 'text-slate-500'}`}>{g.label} · {g.items.length}</h3>
          <ul className="bg-white rounded-xl border border-slate-200 divide-y divide-slate-100">
            {g.items.map((t) => (
              <li key={t.id} className="flex items-center gap-3 px-4 py-3 group">
                <button onClick={() => dispatch({ type: 'task/toggle', id: t.id })} aria-label="Toggle task">
                  {t.done ? <CheckCircle2 className="w-5 h-5 text-emerald-500" /> : <Circle className="w-5 h-5 text-slate-300" />}
                </button>
                <div className="flex-1">
                  <p className={`text-sm ${t.done ? 'line-through text-slate-400' : ''}`}>{t.title}</p>
                  <p className="text-xs text-slate-400">{contactName(t.contactId) || 'No contact'} · due {relativeDay(t.due)}</p>
                </div>
                <span className={`text-xs px-2 py-0.5 rounded-full ${PRIORITY_STYLE[t.priority]}`}>{t.priority}</span>
                <button onClick={() => dispatch({ type: 'task/delete', id: t.id })} className="opacity-0 group-hover:opacity-100 text-slate-300 hover:text-rose-600" aria-label="Delete task"><Trash2 className="w-4 h-4" /></button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Reports                                                             */
/* ------------------------------------------------------------------ */

function ReportsView({ state, money }) {
  const [metric, setMetric] = useState('value');
  const funnel = STAGES.filter((s) => s.id !== 'lost').map((s, i, arr) => {
    const reached = state.deals.filter((d) => {
      if (d.stage === 'lost') return false;
      return arr.findIndex((x) => x.id === d.stage) >= i;
    });
    return { stage: s.label, deals: reached.length, value: reached.reduce((sum, d) => sum + d.value, 0) };
  });

  const bySource = SOURCES.map((src) => {
    const list = state.deals.filter((d) => d.source === src);
    const won = list.filter((d) => d.stage === 'won');
    return { source: src, deals: list.length, won: won.length, value: won.reduce((s, d) => s + d.value, 0) };
  });

  const leaderboard = OWNERS.map((o) => {
    const mine = state.deals.filter((d) => d.owner === o);
    const won = mine.filter((d) => d.stage === 'won');
    const closed = mine.filter((d) => d.stage === 'won' || d.stage === 'lost');
    return { owner: o, won: won.reduce((s, d) => s + d.value, 0), count: won.length, rate: closed.length ? Math.round((won.length / closed.length) * 100) : 0 };
  }).sort((a, b) => b.won - a.won);

  const growth = useMemo(() => {
    const sorted = state.contacts.map((c) => c.createdAt).sort();
    return MONTHS.map((m, i) => ({ month: m, contacts: sorted.filter((d) => Number(d.slice(5, 7)) <= i + 1).length }));
  }, [state.contacts]);

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-4">
        <div className="bg-white rounded-xl border border-slate-200 p-5">
          <div className="flex items-center justify-between mb-3">
            <h3 className="font-semibold">Conversion funnel</h3>
            <div className="flex text-xs bg-slate-100 rounded-lg p-0.5">
              {['value', 'deals'].map((m) => <button key={m} onClick={() => setMetric(m)} className={`px-2 py-1 rounded-md capitalize ${metric === m ? 'bg-white shadow-sm' : ''}`}>{m}</button>)}
            </div>
          </div>
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={funnel} layout="vertical" margin={{ left: 20 }}>
                <XAxis type="number" tickFormatter={(v) => (metric === 'value' ? `${Math.round(v / 1000)}k` : v)} tick={{ fontSize: 11 }} />
                <YAxis type="category" dataKey="stage" tick={{ fontSize: 12 }} width={80} />
                <Tooltip formatter={(v) => (metric === 'value' ? money(v) : v)} />
                <Bar dataKey={metric} fill="#6366f1" radius={[0, 4, 4, 0]} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </div>
        <div className="bg-white rounded-xl border border-slate-200 p-5">
          <h3 className="font-semibold mb-3">Won revenue by source</h3>
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={bySource}>
                <CartesianGrid strokeDasharray="3 3" stroke="#f1f5f9" />
                <XAxis dataKey="source" tick={{ fontSize: 12 }} />
                <YAxis tickFormatter={(v) => `${Math.round(v / 1000)}k`} tick={{ fontSize: 11 }} width={40} />
                <Tooltip formatter={(v, name) => (name === 'value' ? money(v) : v)} />
                <Bar dataKey="value" fill="#10b981" radius={[4, 4, 0, 0]} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </div>
      </div>
      <div className="grid grid-cols-3 gap-4">
        <div className="col-span-2 bg-white rounded-xl border border-slate-200 p-5">
          <h3 className="font-semibold mb-3">Contact base growth</h3>
          <div className="h-56">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={growth}>
                <CartesianGrid strokeDasharray="3 3" stroke="#f1f5f9" />
                <XAxis dataKey="month" tick={{ fontSize: 12 }} />
                <YAxis tick={{ fontSize: 11 }} width={30} />
                <Tooltip />
                <Line type="monotone" dataKey="contacts" stroke="#f59e0b" strokeWidth={2} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </div>
        <div className="bg-white rounded-xl border border-slate-200 p-5">
          <h3 className="font-semibold mb-3">Leaderboard</h3>
          <ol className="space-y-3">
            {leaderboard.map((row, i) => (
              <li key={row.owner} className="flex items-center gap-3">
                <span className="w-5 text-sm text-slate-400">{i + 1}</span>
                <Avatar name={row.owner} />
                <div className="flex-1">
                  <p className="text-sm font-medium">{row.owner}</p>
                  <p className="text-xs text-slate-500">{row.count} won · {row.rate}% win rate</p>
                </div>
                <span className="text-sm font-semibold">{money(row.won)}</span>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* Settings                                                            */
/* ------------------------------------------------------------------ */

function SettingsView({ settings, dispatch, notify }) {
  const [form, setForm] = useState(settings);
  const [errors, setErrors] = useState({});
  const dirty = JSON.stringify(form) !== JSON.stringify(settings);

  const save = (e) => {
    e.preventDefault();
    const found = {};
    if (form.name.trim().length < 2) found.name = 'Name is required';
    if (!/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(form.email)) found.email = 'Valid email required';
    setErrors(found);
    if (Object.keys(found).length) return;
    dispatch({ type: 'settings/update', patch: form });
    notify('Settings saved', 'success');
  };

  const Toggle = ({ field, label, hint }) => (
    <div className="flex items-center justify-between py-3">
      <div><p className="text-sm font-medium">{label}</p><p className="text-xs text-slate-500">{hint}</p></div>
      <button type="button" onClick={() => setForm((f) => ({ ...f, [field]: !f[field] }))} className={`w-11 h-6 rounded-full relative transition ${form[field] ? 'bg-indigo-600' : 'bg-slate-300'}`} aria-pressed={form[field]} aria-label={label}>
        <span className={`absolute top-0.5 w-5 h-5 rounded-full bg-white transition-all ${form[field] ? 'left-5' : 'left-0.5'}`} />
      </button>
    </div>
  );

  return (
    <form onSubmit={save} className="max-w-2xl space-y-6" noValidate>
      <section className="bg-white rounded-xl border border-slate-200 p-5 space-y-4">
        <h3 className="font-semibold">Profile</h3>
        <div className="grid grid-cols-2 gap-4">
          <FormField label="Display name" error={errors.name}><input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} className={inputClass(errors.name)} /></FormField>
          <FormField label="Email" error={errors.email}><input value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} className={inputClass(errors.email)} /></FormField>
          <FormField label="Currency">
            <select value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value })} className={inputClass()}>
              {['USD', 'EUR', 'GBP', 'JPY', 'CAD'].map((c) => <option key={c}>{c}</option>)}
            </select>
          </FormField>
        </div>
      </section>
      <section className="bg-white rounded-xl border border-slate-200 p-5 divide-y divide-slate-100">
        <h3 className="font-semibold pb-2">Notifications and display</h3>
        <Toggle field="emailDigest" label="Daily email digest" hint="A summary of tasks and deal changes each morning" />
        <Toggle field="dealAlerts" label="Deal stage alerts" hint="Notify me when a deal I own changes stage" />
        <Toggle field="compact" label="Compact navigation" hint="Show icons only in the sidebar" />
      </section>
      <div className="flex items-center justify-between">
        <button
          type="button"
          onClick={() => { if (window.confirm('Reset all CRM data to the demo dataset?')) { dispatch({ type: 'reset' }); notify('Data reset', 'danger'); } }}
          className="text-sm text-rose-600 hover:underline"
        >
          Reset demo data
        </button>
        <div className="flex gap-2">
          <button type="button" disabled={!dirty} onClick={() => setForm(settings)} className="px-4 py-2 text-sm rounded-lg border border-slate-300 disabled:opacity-40">Discard</button>
          <button disabled={!dirty} className="px-4 py-2 text-sm rounded-lg bg-indigo-600 text-white disabled:opacity-40">Save changes</button>
        </div>
      </div>
    </form>
  );
}

/* ------------------------------------------------------------------ */
/* Command palette                                                     */
/* ------------------------------------------------------------------ */

function CommandPalette({ state, onClose, onRun }) {
  const [q, setQ] = useState('');
  const [index, setIndex] = useState(0);
  const inputRef = useRef(null);

  useEffect(() => { if (inputRef.current) inputRef.current.focus(); }, []);

  const items = useMemo(() => {
    const base = [
      { id: 'nav-dashboard', label: 'Go to Dashboard', action: { type: 'nav', view: 'dashboard' } },
      { id: 'nav-contacts', label: 'Go to Contacts', action: { type: 'nav', view: 'contacts' } },
      { id: 'nav-pipeline', label: 'Go to Pipeline', action: { type: 'nav', view: 'pipeline' } },
      { id: 'nav-tasks', label: 'Go to Tasks', action: { type: 'nav', view: 'tasks' } },
      { id: 'nav-reports', label: 'Go to Reports', action: { type: 'nav', view: 'reports' } },
      { id: 'new-contact', label: 'Create contact', action: { type: 'newContact' } },
    ];
    const contacts = state.contacts.map((c) => ({ id: c.id, label: `${c.name} — ${c.company}`, action: { type: 'contact', id: c.id } }));
    const needle = q.trim().toLowerCase();
    return [...base, ...contacts].filter((i) => !needle || i.label.toLowerCase().includes(needle)).slice(0, 8);
  }, [q, state.contacts]);

  const onKey = (e) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); setIndex((i) => Math.min(items.length - 1, i + 1)); }
    if (e.key === 'ArrowUp') { e.preventDefault(); setIndex((i) => Math.max(0, i - 1)); }
    if (e.key === 'Enter' && items[index]) onRun(items[index].action);
    if (e.key === 'Escape') onClose();
  };

  return (
    <div className="fixed inset-0 z-50 bg-slate-900/40 flex items-start justify-center pt-32" onMouseDown={onClose}>
      <div className="w-[560px] bg-white rounded-xl shadow-2xl overflow-hidden" onMouseDown={(e) => e.stopPropagation()}>
        <div className="flex items-center gap-2 px-4 border-b border-slate-100">
          <Search className="w-4 h-4 text-slate-400" />
          <input ref={inputRef} value={q} onChange={(e) => { setQ(e.target.value); setIndex(0); }} onKeyDown={onKey} placeholder="Search contacts or jump to…" className="flex-1 py-3 outline-none text-sm" />
          <kbd className="text-[10px] text-slate-400 border border-slate-200 rounded px-1">ESC</kbd>
        </div>
        <ul className="max-h-80 overflow-y-auto py-1">
          {items.map((item, i) => (
            <li key={item.id}>
              <button onMouseEnter={() => setIndex(i)} onClick={() => onRun(item.action)} className={`w-full text-left px-4 py-2 text-sm ${i === index ? 'bg-indigo-50 text-indigo-700' : ''}`}>{item.label}</button>
            </li>
          ))}
          {items.length === 0 && <li className="px-4 py-6 text-sm text-slate-400 text-center">No results</li>}
        </ul>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ */
/* App shell                                                           */
/* ------------------------------------------------------------------ */

const NAV = [
  { id: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { id: 'contacts', label: 'Contacts', icon: Users },
  { id: 'pipeline', label: 'Pipeline', icon: KanbanSquare },
  { id: 'tasks', label: 'Tasks', icon: CheckSquare },
  { id: 'reports', label: 'Reports', icon: BarChart3 },
  { id: 'settings', label: 'Settings', icon: Settings },
];

export default function App() {
  const [state, dispatch] = usePersistentReducer(crmReducer, STORAGE_KEY, buildSeed);
  const [view, setView] = useState('dashboard');
  const [query, setQuery] = useState('');
  const [openContactId, setOpenContactId] = useState(null);
  const [contactModal, setContactModal] = useState(null); // null | 'new' | contact
  const [paletteOpen, setPaletteOpen] = useState(false);
  const { toasts, push } = useToasts();

  const money = useMemo(() => makeMoney(state.settings.currency), [state.settings.currency]);
  const compact = state.settings.compact;
  const openContact = state.contacts.find((c) => c.id === openContactId);
  const overdue = state.tasks.filter((t) => !t.done && t.due < daysFromNow(0)).length;

  useEffect(() => {
    const onKey = (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen((o) => !o);
      }
      if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA' || e.target.tagName === 'SELECT') return;
      const n = Number(e.key);
      if (n >= 1 && n <= NAV.length && !e.ctrlKey && !e.metaKey) setView(NAV[n - 1].id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const runCommand = (action) => {
    setPaletteOpen(false);
    if (action.type === 'nav') setView(action.view);
    if (action.type === 'newContact') setContactModal('new');
    if (action.type === 'contact') { setView('contacts'); setOpenContactId(action.id); }
  };

  const saveContact = (contact) => {
    dispatch({ type: 'contact/save', contact });
    push(contactModal === 'new' ? `Added ${contact.name}` : `Updated ${contact.name}`, 'success');
    setContactModal(null);
  };

  const title = NAV.find((n) => n.id === view)?.label || '';

  return (
    <div className="h-screen flex bg-slate-50 text-slate-800">
      <aside className={`${compact ? 'w-16' : 'w-56'} bg-slate-900 text-slate-300 flex flex-col transition-all`}>
        <div className="h-14 flex items-center gap-2 px-4 text-white font-bold">
          <span className="w-7 h-7 rounded-lg bg-indigo-500 flex items-center justify-center text-sm">R</span>
          {!compact && <span>Relay CRM</span>}
        </div>
        <nav className="flex-1 px-2 space-y-1 mt-2">
          {NAV.map((n, i) => {
            const Icon = n.icon;
            return (
              <button key={n.id} onClick={() => setView(n.id)} title={`${n.label} (${i + 1})`} className={`w-full flex items-center gap-3 px-3 py-2 rounded-lg text-sm ${view === n.id ? 'bg-slate-800 text-white' : 'hover:bg-slate-800/60'}`}>
                <Icon className="w-4 h-4 shrink-0" />
                {!compact && <span className="flex-1 text-left">{n.label}</span>}
                {!compact && n.id === 'tasks' && overdue > 0 && <span className="text-[10px] bg-rose-500 text-white rounded-full px-1.5">{overdue}</span>}
              </button>
            );
          })}
        </nav>
        <div className="p-3 border-t border-slate-800 flex items-center gap-2">
          <Avatar name={state.settings.name} />
          {!compact && <div className="flex-1 min-w-0"><p className="text-sm text-white truncate">{state.settings.name}</p><p className="text-xs text-slate-500 truncate">{state.settings.email}</p></div>}
          {!compact && <button className="text-slate-500 hover:text-white" aria-label="Sign out"><LogOut className="w-4 h-4" /></button>}
        </div>
      </aside>

      <div className="flex-1 flex flex-col min-w-0">
        <header className="h-14 bg-white border-b border-slate-200 flex items-center gap-4 px-6">
          <h1 className="text-lg font-semibold w-40">{title}</h1>
          <div className="relative flex-1 max-w-md">
            <Search className="w-4 h-4 absolute left-3 top-2.5 text-slate-400" />
            <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Filter contacts and deals…" className="w-full pl-9 pr-3 py-2 rounded-lg bg-slate-100 text-sm outline-none focus:bg-white focus:ring-2 focus:ring-indigo-200" />
          </div>
          <button onClick={() => setPaletteOpen(true)} className="flex items-center gap-1 text-xs text-slate-500 border border-slate-200 rounded-lg px-2 py-1.5"><Command className="w-3 h-3" /> K</button>
          <button className="relative p-2 rounded-lg hover:bg-slate-100" aria-label="Notifications">
            <Bell className="w-5 h-5 text-slate-500" />
            {overdue > 0 && <span className="absolute top-1 right-1 w-2 h-2 rounded-full bg-rose-500" />}
          </button>
        </header>

        <main className="flex-1 overflow-y-auto p-6">
          {view === 'dashboard' && <DashboardView state={state} money={money} onOpenContact={(id) => setOpenContactId(id)} onNavigate={setView} />}
          {view === 'contacts' && <ContactsView state={state} dispatch={dispatch} query={query} onOpenContact={setOpenContactId} onNewContact={() => setContactModal('new')} notify={push} />}
          {view === 'pipeline' && <PipelineView state={state} dispatch={dispatch} money={money} query={query} notify={push} />}
          {view === 'tasks' && <TasksView state={state} dispatch={dispatch} notify={push} />}
          {view === 'reports' && <ReportsView state={state} money={money} />}
          {view === 'settings' && <SettingsView key={JSON.stringify(state.settings)} settings={state.settings} dispatch={dispatch} notify={push} />}
        </main>
      </div>

      {openContact && (
        <ContactDrawer
          contact={openContact}
          state={state}
          money={money}
          dispatch={dispatch}
          notify={push}
          onClose={() => setOpenContactId(null)}
          onEdit={(c) => setContactModal(c)}
        />
      )}

      {contactModal && (
        <Modal title={contactModal === 'new' ? 'New contact' : `Edit ${contactModal.name}`} onClose={() => setContactModal(null)}>
          <ContactForm initial={contactModal === 'new' ? null : contactModal} contacts={state.contacts} onSave={saveContact} onCancel={() => setContactModal(null)} />
        </Modal>
      )}

      {paletteOpen && <CommandPalette state={state} onClose={() => setPaletteOpen(false)} onRun={runCommand} />}

      <div className="fixed bottom-4 right-4 z-50 space-y-2">
        {toasts.map((t) => (
          <div key={t.id} className={`px-4 py-2 rounded-lg shadow-lg text-sm text-white ${t.tone === 'success' ? 'bg-emerald-600' : t.tone === 'danger' ? 'bg-rose-600' : 'bg-slate-900'}`}>{t.message}</div>
        ))}
      </div>
    </div>
  );
}
