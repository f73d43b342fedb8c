// Signup Wizard: three-step account registration form with per-field validation, password strength meter and review screen
import { useEffect, useMemo, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { User, Mail, Lock, Eye, EyeOff, Building2, Check, ChevronLeft, ChevronRight, Loader2 } from 'lucide-react';

type Plan = 'starter' | 'team' | 'enterprise';

interface FormValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirm: string;
  company: string;
  teamSize: string;
  plan: Plan;
  acceptTerms: boolean;
  newsletter: boolean;
}

type Errors = Partial<Record<keyof FormValues, string>>;

const INITIAL: FormValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirm: '',
  company: '',
  teamSize: '1-10',
  plan: 'team',
  acceptTerms: false,
  newsletter: true,
};

const STEPS = ['Profile', 'Security', 'Workspace', 'Review'] as const;

const PLANS: { id: Plan; name: string; price: string; blurb: string }[] = [
  { id: 'starter', name: 'Starter', price: '$0', blurb: 'For individuals trying things out' },
  { id: 'team', name: 'Team', price: '$12', blurb: 'Collaboration for growing teams' },
  { id: 'enterprise', name: 'Enterprise', price: 'Custom', blurb: 'SSO, audit logs and priority support' },
];

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

function passwordScore(pw: string): number {
  let score = 0;
  if (pw.length >= 8) score++;
  if (pw.length >= 12) score++;
  if (/[A-Z]/.test(pw) && /[a-z]/.test(pw)) score++;
  if (/\d/.test(pw)) score++;
  if (/[^A-Za-z0-9]/.test(pw)) score++;
  return Math.min(score, 4);
}

const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'];
const STRENGTH_COLORS = ['bg-red-500', 'bg-orange-500', 'bg-yellow-500', 'bg-lime-500', 'bg-green-600'];

function validateStep(step: number, v: FormValues): Errors {
  const errors: Errors = {};
  if (step === 0) {
    if (!v.firstName.trim()) errors.firstName = 'First name is required';
    if (!v.lastName.trim()) errors.lastName = 'Last name is required';
    if (!v.email.trim()) errors.email = 'Email is required';
    else if (!EMAIL_RE.test(v.email)) errors.email = 'Enter a valid email address';
  }
  if (step === 1) {
    if (v.password.length < 8) errors.password = 'Use at least 8 characters';
    else if (passwordScore(v.password) < 2) errors.password = 'Password is too weak';
    if (v.confirm !== v.password) errors.confirm = 'Passwords do not match';
  }
  if (step === 2) {
    if (v.plan !== 'starter' && !v.company.trim()) errors.company = 'Company name is required for paid plans';
    if (!v.acceptTerms) errors.acceptTerms = 'You must accept the terms to continue';
  }
  return errors;
}

interface FieldProps {
  label: string;
  name: keyof FormValues;
  value: string;
  error?: string;
  type?: string;
  icon: React.ReactNode;
  placeholder?: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  trailing?: React.ReactNode;
}

function Field({ label, name, value, error, type = 'text', icon, placeholder, onChange, trailing }: FieldProps) {
  return (
    <label className="block">
      <span className="mb-1 block text-sm font-medium text-gray-700">{label}</span>
      <span
        className={`flex items-center gap-2 rounded-lg border bg-white px-3 py-2 focus-within:ring-2 ${
          error ? 'border-red-400 focus-within:ring-red-200' : 'border-gray-300 focus-within:ring-indigo-200'
        }`}
      >
        <span className="text-gray-400">{icon}</span>
        <input name={name} type={type} value={value} placeholder={placeholder} onChange={onChange} className="w-full bg-transparent text-sm outline-none" />
        {trailing}
      </span>
      {error && <span className="mt-1 block text-xs text-red-600">{error}</span>}
    </label>
  );
}

export default function App() {
  const [values, setValues] = useState<FormValues>(INITIAL);
  const [errors, setErrors] = useState<Errors>({});
  const [step, setStep] = useState(0);
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const score = useMemo(() => passwordScore(values.password), [values.password]);

  useEffect(() => {
    if (!submitting) return;
    const id = window.setTimeout(() => {
      setSubmitting(false);
      setDone(true);
    }, 1200);
    return () => window.clearTimeout(id);
  }, [submitting]);

  const handleChange = (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const target = e.target;
    const name = target.name as keyof FormValues;
    const next = target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
    setValues((prev) => ({ ...prev, [name]: next }));
    setErrors((prev) => ({ ...prev, [name]: undefined }));
  };

  const goNext = () => {
    const found = validateStep(step, values);
    setErrors(found);
    if (Object.keys(found).length === 0) setStep((s) => Math.min(s + 1, STEPS.length - 1));
  };

  const goBack = () => setStep((s) => Math.max(s - 1, 0));

  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (step < STEPS.length - 1) {
      goNext();
      return;
    }
    const all = [0, 1, 2].reduce<Errors>((acc, s) => ({ ...acc, ...validateStep(s, values) }), {});
    if (Object.keys(all).length > 0) {
      setErrors(all);
      return;
    }
    setSubmitting(true);
  };

  const restart = () => {
    setValues(INITIAL);
    setErrors({});
    setStep(0);
    setDone(false);
  };

  if (done) {
    return (
      <div className="flex min-h-screen items-center justify-center bg-gradient-to-br from-indigo-50 to-sky-100 p-6">
        <div className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-xl">
          <div className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-green-100 text-green-600">
            <Check size={28} />
          </div>
          <h1 className="text-2xl font-bold text-gray-900">Welcome aboard, {values.firstName}!</h1>
          <p className="mt-2 text-gray-600">
            We sent a confirmation link to <span className="font-medium">{values.email}</span>.
          </p>
          <button onClick={restart} className="mt-6 rounded-lg bg-indigo-600 px-4 py-2 text-white hover:bg-indigo-700">
            Create another account
          </button>
        </div>
      </div>
    );
  }

  const selectedPlan = PLANS.find((p) => p.id === values.plan);

  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-br from-indigo-50 to-sky-100 p-6">
      <form onSubmit={handleSubmit} noValidate className="w-full max-w-xl rounded-2xl bg-white p-8 shadow-xl">
        <h1 className="text-2xl font-bold text-gray-900">Create your account</h1>
        <p className="mb-6 text-sm text-gray-500">
          Step {step + 1} of {STEPS.length}: {STEPS[step]}
        </p>

        <ol className="mb-8 flex items-center gap-2">
          {STEPS.map((label, i) => (
            <li key={label} className="flex flex-1 items-center gap-2">
              <span
                className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                  i < step ? 'bg-indigo-600 text-white' : i === step ? 'border-2 border-indigo-600 text-indigo-600' : 'bg-gray-100 text-gray-400'
                }`}
              >
                {i < step ? <Check size={16} /> : i + 1}
              </span>
              <span className={`hidden text-xs sm:block ${i === step ? 'font-semibold text-gray-900' : 'text-gray-500'}`}>{label}</span>
              {i < STEPS.length - 1 && <span className={`h-0.5 flex-1 ${i < step ? 'bg-indigo-600' : 'bg-gray-200'}`} />}
            </li>
          ))}
        </ol>

        {step === 0 && (
          <div className="space-y-4">
            <div className="grid grid-cols-2 gap-4">
              <Field label="First name" name="firstName" value={values.firstName} error={errors.firstName} icon={<User size={16} />} onChange={handleChange} />
              <Field label="Last name" name="lastName" value={values.lastName} error={errors.lastName} icon={<User size={16} />} onChange={handleChange} />
            </div>
            <Field
              label="Work email"
              name="email"
              type="email"
              value={values.email}
              error={errors.email}
              placeholder="you@company.com"
              icon={<Mail size={16} />}
              onChange={handleChange}
            />
          </div>
        )}

        {step === 1 && (
          <div className="space-y-4">
            <Field
              label="Password"
              name="password"
              type={showPassword ? 'text' : 'password'}
              value={values.password}
              error={errors.password}
              icon={<Lock size={16} />}
              onChange={handleChange}
              trailing={
                <button type="button" onClick={() => setShowPassword((s) => !s)} className="text-gray-400 hover:text-gray-600" aria-label="Toggle password visibility">
                  {showPassword ? <EyeOff size={16} /> : <Eye size={16} />}
                </button>
              }
            />
            <div>
              <div className="flex gap-1">
                {[0, 1, 2, 3].map((i) => (
                  <span key={i} className={`h-1.5 flex-1 rounded ${values.password && i < score ? STRENGTH_COLORS[score] : 'bg-gray-200'}`} />
                ))}
              </div>
              <p className="mt-1 text-xs text-gray-500">Strength: {values.password ? STRENGTH_LABELS[score] : 'n/a'}</p>
            </div>
            <Field
              label="Confirm password"
              name="confirm"
              type={showPassword ? 'text' : 'password'}
              value={values.confirm}
              error={errors.confirm}
              icon={<Lock size={16} />}
              onChange={handleChange}
            />
          </div>
        )}

        {step === 2 && (
          <div className="space-y-4">
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              {PLANS.map((p) => (
                <button
                  type="button"
                  key={p.id}
                  onClick={() => setValues((v) => ({ ...v, plan: p.id }))}
                  className={`rounded-xl border p-3 text-left transition ${values.plan === p.id ? 'border-indigo-600 ring-2 ring-indigo-200' : 'border-gray-200 hover:border-gray-300'}`}
                >
                  <div className="font-semibold">{p.name}</div>
                  <div className="text-lg font-bold text-indigo-600">{p.price}</div>
                  <div className="text-xs text-gray-500">{p.blurb}</div>
                </button>
              ))}
            </div>
            <Field label="Company" name="company" value={values.company} error={errors.company} icon={<Building2 size={16} />} onChange={handleChange} />
            <label className="block">
              <span className="mb-1 block text-sm font-medium text-gray-700">Team size</span>
              <select name="teamSize" value={values.teamSize} onChange={handleChange} className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm">
                {['1-10', '11-50', '51-200', '200+'].map((s) => (
                  <option key={s} value={s}>
                    {s} people
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" name="acceptTerms" checked={values.acceptTerms} onChange={handleChange} className="mt-0.5" />
              <span>
                I agree to the Terms of Service and Privacy Policy
                {errors.acceptTerms && <span className="block text-xs text-red-600">{errors.acceptTerms}</span>}
              </span>
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="newsletter" checked={values.newsletter} onChange={handleChange} />
              Send me product updates
            </label>
          </div>
        )}

        {step === 3 && (
          <dl className="divide-y divide-gray-100 rounded-lg border border-gray-200 text-sm">
            {[
              ['Name', `${values.firstName} ${values.lastName}`],
              ['Email', values.email],
              ['Password', '•'.repeat(values.password.length)],
              ['Plan', selectedPlan ? `${selectedPlan.name} (${selectedPlan.price})` : values.plan],
              ['Company', values.company || '—'],
              ['Team size', values.teamSize],
              ['Newsletter', values.newsletter ? 'Subscribed' : 'No thanks'],
            ].map(([k, v]) => (
              <div key={k} className="flex justify-between px-4 py-2.5">
                <dt className="text-gray-500">{k}</dt>
                <dd className="font-medium text-gray-900">{v}</dd>
              </div>
            ))}
          </dl>
        )}

        <div className="mt-8 flex items-center justify-between">
          <button
            type="button"
            onClick={goBack}
            disabled={step === 0 || submitting}
            className="flex items-center gap-1 rounded-lg px-4 py-2 text-sm text-gray-600 hover:bg-gray-100 disabled:opacity-40"
          >
            <ChevronLeft size={16} /> Back
          </button>
          {step < STEPS.length - 1 ? (
            <button type="button" onClick={goNext} className="flex items-center gap-1 rounded-lg bg-indigo-600 px-5 py-2 text-sm font-medium text-white hover:bg-indigo-700">
              Continue <ChevronRight size={16} />
            </button>
          ) : (
            <button type="submit" disabled={submitting} className="flex items-center gap-2 rounded-lg bg-green-600 px-5 py-2 text-sm font-medium text-white hover:bg-green-700 disabled:opacity-60">
              {submitting && <Loader2 size={16} className="animate-spin" />}
              {submitting ? 'Creating account…' : 'Create account'}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
