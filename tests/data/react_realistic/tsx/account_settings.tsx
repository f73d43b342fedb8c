// Account Settings: tabbed settings page with profile form, notification toggles, connected apps, appearance and a danger zone
import { useEffect, useMemo, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { FaGithub, FaGoogle, FaSlack } from 'react-icons/fa';
import type { IconType } from 'react-icons';

type TabId = 'profile' | 'notifications' | 'integrations' | 'appearance' | 'danger';
type Theme = 'light' | 'dark' | 'system';

interface Profile {
  displayName: string;
  username: string;
  email: string;
  bio: string;
  timezone: string;
  website: string;
}

interface NotificationPrefs {
  productUpdates: boolean;
  weeklyDigest: boolean;
  mentions: boolean;
  securityAlerts: boolean;
  marketing: boolean;
}

interface Integration {
  id: string;
  name: string;
  description: string;
  icon: IconType;
  connected: boolean;
}

interface Settings {
  profile: Profile;
  notifications: NotificationPrefs;
  theme: Theme;
  accent: string;
  compact: boolean;
}

const STORAGE_KEY = 'account-settings-v1';

const DEFAULTS: Settings = {
  profile: {
    displayName: 'Jordan Lee',
    username: 'jlee',
    email: 'jordan@example.com',
    bio: 'Product designer. Coffee, cycling and clean interfaces.',
    timezone: 'Europe/Berlin',
    website: 'https://jordan.design',
  },
  notifications: { productUpdates: true, weeklyDigest: true, mentions: true, securityAlerts: true, marketing: false },
  theme: 'system',
  accent: '#4f46e5',
  compact: false,
};

const TIMEZONES = ['America/Los_Angeles', 'America/New_York', 'Europe/London', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Sydney'];
const ACCENTS = ['#4f46e5', '#0891b2', '#16a34a', '#ea580c', '#db2777', '#475569'];

const NOTIFICATION_LABELS: Record<keyof NotificationPrefs, { title: string; hint: string }> = {
  productUpdates: { title: 'Product updates', hint: 'New features and improvements' },
  weeklyDigest: { title: 'Weekly digest', hint: 'A summary of activity every Monday' },
  mentions: { title: 'Mentions', hint: 'When someone mentions you in a comment' },
  securityAlerts: { title: 'Security alerts', hint: 'Sign-ins from new devices' },
  marketing: { title: 'Offers and promotions', hint: 'Occasional deals from our partners' },
};

function loadSettings(): Settings {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return DEFAULTS;
    const parsed = JSON.parse(raw) as Partial<Settings>;
    return { ...DEFAULTS, ...parsed, profile: { ...DEFAULTS.profile, ...parsed.profile }, notifications: { ...DEFAULTS.notifications, ...parsed.notifications } };
  } catch {
    return DEFAULTS;
  }
}

function saveSettings(s: Settings): boolean {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(s));
    return true;
  } catch {
    return false;
  }
}

function validateProfile(p: Profile): Partial<Record<keyof Profile, string>> {
  const errors: Partial<Record<keyof Profile, string>> = {};
  if (p.displayName.trim().length < 2) errors.displayName = 'Display name must be at least 2 characters';
  if (!/^[a-z0-9_]{3,20}$/.test(p.username)) errors.username = 'Use 3–20 lowercase letters, digits or underscores';
  if (!/^\S+@\S+\.\S+$/.test(p.email)) errors.email = 'Enter a valid email';
  if (p.bio.length > 160) errors.bio = 'Bio must be 160 characters or fewer';
  if (p.website && !/^https?:\/\/\S+$/.test(p.website)) errors.website = 'URL must start with http:// or https://';
  return errors;
}

function Toggle({ checked, onChange, label }: { checked: boolean; onChange: (v: boolean) => void; label: string }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition ${checked ? 'bg-indigo-600' : 'bg-gray-300'}`}
    >
      <span className={`inline-block h-5 w-5 transform rounded-full bg-white shadow transition ${checked ? 'translate-x-5' : 'translate-x-0.5'}`} />
    </button>
  );
}

const TABS: { id: TabId; label: string }[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'appearance', label: 'Appearance' },
  { id: 'danger', label: 'Danger zone' },
];

export default function App() {
  const [saved, setSaved] = useState<Settings>(loadSettings);
  const [draft, setDraft] = useState<Settings>(saved);
  const [tab, setTab] = useState<TabId>('profile');
  const [toast, setToast] = useState<string | null>(null);
  const [integrations, setIntegrations] = useState<Integration[]>([
    { id: 'github', name: 'GitHub', description: 'Link commits and pull requests to tasks', icon: FaGithub, connected: true },
    { id: 'slack', name: 'Slack', description: 'Get notifications in your channels', icon: FaSlack, connected: false },
    { id: 'google', name: 'Google Calendar', description: 'Sync due dates with your calendar', icon: FaGoogle, connected: false },
  ]);
  const [confirmText, setConfirmText] = useState('');

  const errors = useMemo(() => validateProfile(draft.profile), [draft.profile]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const hasErrors = Object.keys(errors).length > 0;

  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), 2500);
    return () => clearTimeout(t);
  }, [toast]);

  const updateProfile = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    const { name, value } = e.target;
    setDraft((d) => ({ ...d, profile: { ...d.profile, [name]: value } }));
  };

  const handleSave = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (hasErrors) {
      setTab('profile');
      setToast('Fix the highlighted fields first');
      return;
    }
    const ok = saveSettings(draft);
    setSaved(draft);
    setToast(ok ? 'Settings saved' : 'Saved for this session (storage unavailable)');
  };

  const inputClass = (field: keyof Profile) =>
    `w-full rounded-lg border px-3 py-2 text-sm outline-none focus:ring-2 ${errors[field] ? 'border-red-400 focus:ring-red-100' : 'border-gray-300 focus:ring-indigo-100'}`;

  return (
    <div className={`min-h-screen ${draft.theme === 'dark' ? 'bg-gray-900 text-gray-100' : 'bg-gray-50 text-gray-900'}`}>
      <form onSubmit={handleSave} className="mx-auto max-w-5xl px-6 py-10">
        <div className="mb-8 flex items-center justify-between">
          <div>
            <h1 className="text-3xl font-bold">Settings</h1>
            <p className="text-sm text-gray-500">Manage your account and preferences</p>
          </div>
          <div className="flex gap-2">
            <button type="button" disabled={!dirty} onClick={() => setDraft(saved)} className="rounded-lg border border-gray-300 px-4 py-2 text-sm disabled:opacity-40">
              Discard
            </button>
            <button type="submit" disabled={!dirty} className="rounded-lg px-4 py-2 text-sm font-medium text-white disabled:opacity-40" style={{ backgroundColor: draft.accent }}>
              Save changes
            </button>
          </div>
        </div>

        <div className="flex gap-8">
          <nav className="w-48 shrink-0 space-y-1">
            {TABS.map((t) => (
              <button
                type="button"
                key={t.id}
                onClick={() => setTab(t.id)}
                className={`block w-full rounded-lg px-3 py-2 text-left text-sm ${tab === t.id ? 'bg-indigo-50 font-semibold text-indigo-700' : 'text-gray-600 hover:bg-gray-100'} ${
                  t.id === 'danger' ? 'text-red-600' : ''
                }`}
              >
                {t.label}
                {t.id === 'profile' && hasErrors && <span className="ml-2 inline-block h-2 w-2 rounded-full bg-red-500" />}
              </button>
            ))}
          </nav>

          <section className={`flex-1 rounded-2xl border p-6 ${draft.theme === 'dark' ? 'border-gray-700 bg-gray-800' : 'border-gray-200 bg-white'} ${draft.compact ? 'space-y-3' : 'space-y-6'}`}>
            {tab === 'profile' && (
              <>
                <div className="flex items-center gap-4">
                  <div className="flex h-16 w-16 items-center justify-center rounded-full text-xl font-bold text-white" style={{ backgroundColor: draft.accent }}>
                    {draft.profile.displayName
                      .split(' ')
                      .map((w) => w.charAt(0))
                      .join('')
                      .slice(0, 2) || '?'}
                  </div>
                  <div>
                    <div className="font-semibold">{draft.profile.displayName || 'Unnamed'}</div>
                    <div className="text-sm text-gray-500">@{draft.profile.username}</div>
                  </div>
                </div>
                <div className="grid grid-cols-2 gap-4">
                  {(
                    [
                      ['displayName', 'Display name'],
                      ['username', 'Username'],
                      ['email', 'Email'],
                      ['website', 'Website'],
                    ] as [keyof Profile, string][]
                  ).map(([field, label]) => (
                    <label key={field} className="block text-sm">
                      <span className="mb-1 block font-medium">{label}</span>
                      <input name={field} value={draft.profile[field]} onChange={updateProfile} className={inputClass(field)} />
                      {errors[field] && <span className="mt-1 block text-xs text-red-600">{errors[field]}</span>}
                    </label>
                  ))}
                </div>
                <label className="block text-sm">
                  <span className="mb-1 flex justify-between font-medium">
                    Bio <span className={`text-xs ${draft.profile.bio.length > 160 ? 'text-red-600' : 'text-gray-400'}`}>{draft.profile.bio.length}/160</span>
                  </span>
                  <textarea name="bio" rows={3} value={draft.profile.bio} onChange={updateProfile} className={inputClass('bio')} />
                  {errors.bio && <span className="mt-1 block text-xs text-red-600">{errors.bio}</span>}
                </label>
                <label className="block text-sm">
                  <span className="mb-1 block font-medium">Timezone</span>
                  <select name="timezone" value={draft.profile.timezone} onChange={updateProfile} className={inputClass('timezone')}>
                    {TIMEZONES.map((tz) => (
                      <option key={tz}>{tz}</option>
                    ))}
                  </select>
                </label>
              </>
            )}

            {tab === 'notifications' && (
              <ul className="divide-y divide-gray-100">
                {(Object.keys(NOTIFICATION_LABELS) as (keyof NotificationPrefs)[]).map((key) => (
                  <li key={key} className="flex items-center justify-between py-4">
                    <div>
                      <div className="text-sm font-medium">{NOTIFICATION_LABELS[key].title}</div>
                      <div className="text-xs text-gray-500">{NOTIFICATION_LABELS[key].hint}</div>
                    </div>
                    <Toggle
                      label={NOTIFICATION_LABELS[key].title}
                      checked={draft.notifications[key]}
                      onChange={(v) => setDraft((d) => ({ ...d, notifications: { ...d.notifications, [key]: v } }))}
                    />
                  </li>
                ))}
              </ul>
            )}

            {tab === 'integrations' && (
              <ul className="space-y-3">
                {integrations.map((app) => {
                  const Icon = app.icon;
                  return (
                    <li key={app.id} className="flex items-center gap-4 rounded-xl border border-gray-200 p-4">
                      <Icon size={28} />
                      <div className="flex-1">
                        <div className="font-medium">{app.name}</div>
                        <div className="text-xs text-gray-500">{app.description}</div>
                      </div>
                      <button
                        type="button"
                        onClick={() => {
                          setIntegrations((list) => list.map((i) => (i.id === app.id ? { ...i, connected: !i.connected } : i)));
                          setToast(`${app.name} ${app.connected ? 'disconnected' : 'connected'}`);
                        }}
                        className={`rounded-lg px-3 py-1.5 text-sm ${app.connected ? 'border border-gray-300 text-gray-700' : 'bg-gray-900 text-white'}`}
                      >
                        {app.connected ? 'Disconnect' : 'Connect'}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}

            {tab === 'appearance' && (
              <>
                <div>
                  <h3 className="mb-2 text-sm font-medium">Theme</h3>
                  <div className="grid grid-cols-3 gap-3">
                    {(['light', 'dark', 'system'] as Theme[]).map((t) => (
                      <button
                        type="button"
                        key={t}
                        onClick={() => setDraft((d) => ({ ...d, theme: t }))}
                        className={`rounded-xl border-2 p-4 text-sm capitalize ${draft.theme === t ? 'border-indigo-600' : 'border-gray-200'}`}
                      >
                        <div className={`mb-2 h-12 rounded-md ${t === 'dark' ? 'bg-gray-800' : t === 'light' ? 'bg-gray-100' : 'bg-gradient-to-r from-gray-100 to-gray-800'}`} />
                        {t}
                      </button>
                    ))}
                  </div>
                </div>
                <div>
                  <h3 className="mb-2 text-sm font-medium">Accent colour</h3>
                  <div className="flex gap-3">
                    {ACCENTS.map((c) => (
                      <button
                        type="button"
                        key={c}
                        aria-label={`Accent ${c}`}
                        onClick={() => setDraft((d) => ({ ...d, accent: c }))}
                        className={`h-9 w-9 rounded-full ring-offset-2 ${draft.accent === c ? 'ring-2 ring-gray-900' : ''}`}
                        style={{ backgroundColor: c }}
                      />
                    ))}
                  </div>
                </div>
                <div className="flex items-center justify-between">
                  <div>
                    <div className="text-sm font-medium">Compact mode</div>
                    <div className="text-xs text-gray-500">Reduce spacing in lists and panels</div>
                  </div>
                  <Toggle label="Compact mode" checked={draft.compact} onChange={(v) => setDraft((d) => ({ ...d, compact: v }))} />
                </div>
              </>
            )}

            {tab === 'danger' && (
              <div className="rounded-xl border border-red-200 bg-red-50 p-5">
                <h3 className="font-semibold text-red-700">Delete account</h3>
                <p className="mt-1 text-sm text-red-600">This permanently removes your workspace, projects and files. Type your username to confirm.</p>
                <input
                  value={confirmText}
                  onChange={(e) => setConfirmText(e.target.value)}
                  placeholder={saved.profile.username}
                  className="mt-3 w-64 rounded-lg border border-red-300 px-3 py-2 text-sm"
                />
                <button
                  type="button"
                  disabled={confirmText !== saved.profile.username}
                  onClick={() => {
                    setConfirmText('');
                    setToast('Account scheduled for deletion');
                  }}
                  className="ml-3 rounded-lg bg-red-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-40"
                >
                  Delete account
                </button>
              </div>
            )}
          </section>
        </div>
      </form>

      {toast && <div className="fixed bottom-6 right-6 rounded-lg bg-gray-900 px-4 py-3 text-sm text-white shadow-lg">{toast}</div>}
    </div>
  );
}
