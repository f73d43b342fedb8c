// Account Signup Wizard: four-step onboarding form with per-step validation, password strength meter and review screen
import { useState, useMemo, useReducer } from 'react';
import { User, Mail, Lock, Eye, EyeOff, Building2, Check, ChevronLeft, ChevronRight, Loader2 } from 'lucide-react';

const STEPS = ['Account', 'Profile', 'Workspace', 'Review'];

const initialForm = {
  email: '',
  password: '',
  confirm: '',
  firstName: '',
  lastName: '',
  phone: '',
  role: '',
  company: '',
  teamSize: '1-10',
  workspace: '',
  interests: [],
  terms: false,
};

function formReducer(state, action) {
  switch (action.type) {
    case 'field':
      return { ...state, [action.name]: action.value };
    case 'toggleInterest': {
      const has = state.interests.includes(action.value);
      return { ...state, interests: has ? state.interests.filter((x) => x !== action.value) : [...state.interests, action.value] };
    }
    case 'reset':
      return initialForm;
    default:
      return state;
  }
}

function passwordScore(pw) {
  let score = 0;
  if (pw.length >= 8) score += 1;
  if (pw.length >= 12) score += 1;
  if (/[A-Z]/.test(pw) && /[a-z]/.test(pw)) score += 1;
  if (/\d/.test(pw)) score += 1;
  if (/[^A-Za-z0-9]/.test(pw)) score += 1;
  return Math.min(score, 4);
}

const STRENGTH = [
  { label: 'Too weak', color: 'bg-rose-500' },
  { label: 'Weak', color: 'bg-orange-500' },
  { label: 'Fair', color: 'bg-amber-400' },
  { label: 'Good', color: 'bg-lime-500' },
  { label: 'Strong', color: 'bg-emerald-500' },
];

function validate(step, f) {
  const e = {};
  if (step === 0) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(f.email)) e.email = 'Enter a valid email address';
    if (f.password.length < 8) e.password = 'Use at least 8 characters';
    else if (passwordScore(f.password) < 2) e.password = 'Mix letters, numbers and symbols';
    if (f.confirm !== f.password) e.confirm = 'Passwords do not match';
  }
  if (step === 1) {
    if (!f.firstName.trim()) e.firstName = 'Required';
    if (!f.lastName.trim()) e.lastName = 'Required';
    if (f.phone && !/^\+?[\d\s()-]{7,}$/.test(f.phone)) e.phone = 'That does not look like a phone number';
    if (!f.role) e.role = 'Pick a role';
  }
  if (step === 2) {
    if (!/^[a-z0-9-]{3,24}$/.test(f.workspace)) e.workspace = '3–24 lowercase letters, digits or dashes';
    if (f.interests.length === 0) e.interests = 'Choose at least one';
  }
  if (step === 3 && !f.terms) e.terms = 'You must accept the terms';
  return e;
}

function Field({ label, error, icon: Icon, children }) {
  return (
    <label className="block">
      <span className="text-sm font-medium text-gray-700">{label}</span>
      <div className={`mt-1 flex items-center gap-2 border rounded-lg px-3 bg-white focus-within:ring-2 focus-within:ring-blue-500 ${error ? 'border-rose-400' : 'border-gray-300'}`}>
        {Icon && <Icon className="w-4 h-4 text-gray-400" />}
        {children}
      </div>
      {error && <span className="text-xs text-rose-600 mt-1 block">{error}</span>}
    </label>
  );
}

const INTERESTS = ['Analytics', 'Automation', 'Collaboration', 'Integrations', 'Reporting', 'Security'];

export default function App() {
  const [step, setStep] = useState(0);
  const [form, dispatch] = useReducer(formReducer, initialForm);
  const [errors, setErrors] = useState({});
  const [showPw, setShowPw] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const strength = useMemo(() => passwordScore(form.password), [form.password]);
  const set = (name) => (e) => {
    const value = e.target.type === 'checkbox' ? e.target.checked : e.target.value;
    dispatch({ type: 'field', name, value });
    if (errors[name]) setErrors((prev) => ({ ...prev, [name]: undefined }));
  };

  const next = () => {
    const found = validate(step, form);
    setErrors(found);
    if (Object.keys(found).length === 0) setStep((s) => Math.min(STEPS.length - 1, s + 1));
  };

  const back = () => {
    setErrors({});
    setStep((s) => Math.max(0, s - 1));
  };

  const submit = (e) => {
    e.preventDefault();
    if (step < STEPS.length - 1) {
      next();
      return;
    }
    const found = validate(step, form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSubmitting(true);
    setTimeout(() => {
      setSubmitting(false);
      setDone(true);
    }, 1200);
  };

  if (done) {
    return (
      <div className="min-h-screen bg-gray-50 flex items-center justify-center">
        <div className="bg-white rounded-2xl shadow-lg p-10 max-w-md text-center">
          <div className="w-14 h-14 rounded-full bg-emerald-100 text-emerald-600 mx-auto flex items-center justify-center">
            <Check className="w-7 h-7" />
          </div>
          <h1 className="text-2xl font-bold mt-4">Welcome aboard, {form.firstName}!</h1>
          <p className="text-gray-500 mt-2">Your workspace <span className="font-mono">{form.workspace}.acme.app</span> is ready.</p>
          <button
            onClick={() => { dispatch({ type: 'reset' }); setStep(0); setDone(false); }}
            className="mt-6 text-sm text-blue-600 hover:underline"
          >
            Create another account
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="min-h-screen bg-gray-50 flex items-center justify-center py-10">
      <form onSubmit={submit} noValidate className="bg-white rounded-2xl shadow-lg w-full max-w-xl p-8">
        <ol className="flex items-center mb-8">
          {STEPS.map((label, i) => (
            <li key={label} className="flex-1 flex items-center">
              <div className={`w-8 h-8 rounded-full flex items-center justify-center text-sm font-semibold ${i < step ? 'bg-blue-600 text-white' : i === step ? 'border-2 border-blue-600 text-blue-600' : 'bg-gray-100 text-gray-400'}`}>
                {i < step ? <Check className="w-4 h-4" /> : i + 1}
              </div>
              <span className={`ml-2 text-sm ${i === step ? 'font-semibold text-gray-900' : 'text-gray-500'}`}>{label}</span>
              {i < STEPS.length - 1 && <div className={`flex-1 h-px mx-3 ${i < step ? 'bg-blue-600' : 'bg-gray-200'}`} />}
            </li>
          ))}
        </ol>

        {step === 0 && (
          <div className="space-y-4">
            <h2 className="text-xl font-bold">Create your account</h2>
            <Field label="Work email" error={errors.email} icon={Mail}>
              <input type="email" value={form.email} onChange={set('email')} className="flex-1 py-2 outline-none" placeholder="jane@company.com" />
            </Field>
            <Field label="Password" error={errors.password} icon={Lock}>
              <input type={showPw ? 'text' : 'password'} value={form.password} onChange={set('password')} className="flex-1 py-2 outline-none" />
              <button type="button" onClick={() => setShowPw((s) => !s)} className="text-gray-400" aria-label="Toggle password visibility">
                {showPw ? <EyeOff className="w-4 h-4" /> : <Eye className="w-4 h-4" />}
              </button>
            </Field>
            {form.password && (
              <div>
                <div className="flex gap-1">
                  {[0, 1, 2, 3].map((i) => (
                    <div key={i} className={`h-1.5 flex-1 rounded ${i < strength ? STRENGTH[strength].color : 'bg-gray-200'}`} />
                  ))}
                </div>
                <p className="text-xs text-gray-500 mt-1">Strength: {STRENGTH[strength].label}</p>
              </div>
            )}
            <Field label="Confirm password" error={errors.confirm} icon={Lock}>
              <input type={showPw ? 'text' : 'password'} value={form.confirm} onChange={set('confirm')} className="flex-1 py-2 outline-none" />
            </Field>
          </div>
        )}

        {step === 1 && (
          <div className="space-y-4">
            <h2 className="text-xl font-bold">Tell us about yourself</h2>
            <div className="grid grid-cols-2 gap-4">
              <Field label="First name" error={errors.firstName} icon={User}>
                <input value={form.firstName} onChange={set('firstName')} className="flex-1 py-2 outline-none min-w-0" />
              </Field>
              <Field label="Last name" error={errors.lastName}>
                <input value={form.lastName} onChange={set('lastName')} className="flex-1 py-2 outline-none min-w-0" />
              </Field>
            </div>
            <Field label="Phone (optional)" error={errors.phone}>
              <input value={form.phone} onChange={set('phone')} className="flex-1 py-2 outline-none" placeholder="+1 555 123 4567" />
            </Field>
            <Field label="Your role" error={errors.role}>
              <select value={form.role} onChange={set('role')} className="flex-1 py-2 outline-none bg-transparent">
                <option value="">Select…</option>
                <option>Engineering</option>
                <option>Product</option>
                <option>Design</option>
                <option>Marketing</option>
                <option>Operations</option>
              </select>
            </Field>
          </div>
        )}

        {step === 2 && (
          <div className="space-y-4">
            <h2 className="text-xl font-bold">Set up your workspace</h2>
            <Field label="Company (optional)" icon={Building2}>
              <input value={form.company} onChange={set('company')} className="flex-1 py-2 outline-none" />
            </Field>
            <Field label="Workspace URL" error={errors.workspace}>
              <input value={form.workspace} onChange={set('workspace')} className="flex-1 py-2 outline-none font-mono" placeholder="my-team" />
              <span className="text-gray-400 text-sm">.acme.app</span>
            </Field>
            <div>
              <span className="text-sm font-medium text-gray-700">Team size</span>
              <div className="flex gap-2 mt-1">
                {['1-10', '11-50', '51-200', '200+'].map((size) => (
                  <button type="button" key={size} onClick={() => dispatch({ type: 'field', name: 'teamSize', value: size })}
                    className={`flex-1 py-2 rounded-lg border text-sm ${form.teamSize === size ? 'border-blue-600 bg-blue-50 text-blue-700' : 'border-gray-300'}`}>
                    {size}
                  </button>
                ))}
              </div>
            </div>
            <div>
              <span className="text-sm font-medium text-gray-700">What are you interested in?</span>
              <div className="flex flex-wrap gap-2 mt-2">
                {INTERESTS.map((it) => (
                  <button type="button" key={it} onClick={() => { dispatch({ type: 'toggleInterest', value: it }); setErrors((p) => ({ ...p, interests: undefined })); }}
                    className={`px-3 py-1 rounded-full text-sm border ${form.interests.includes(it) ? 'bg-blue-600 border-blue-600 text-white' : 'border-gray-300 text-gray-600'}`}>
                    {it}
                  </button>
                ))}
              </div>
              {errors.interests && <p className="text-xs text-rose-600 mt-1">{errors.interests}</p>}
            </div>
          </div>
        )}

        {step === 3 && (
          <div className="space-y-4">
            <h2 className="text-xl font-bold">Review and confirm</h2>
            <dl className="grid grid-cols-3 gap-y-2 text-sm bg-gray-50 rounded-lg p-4">
              <dt className="text-gray-500">Email</dt><dd className="col-span-2">{form.email}</dd>
              <dt className="text-gray-500">Name</dt><dd className="col-span-2">{form.firstName} {form.lastName}</dd>
              <dt className="text-gray-500">Role</dt><dd className="col-span-2">{form.role}</dd>
              <dt className="text-gray-500">Workspace</dt><dd className="col-span-2 font-mono">{form.workspace}.acme.app</dd>
              <dt className="text-gray-500">Team size</dt><dd className="col-span-2">{form.teamSize}</dd>
              <dt className="text-gray-500">Interests</dt><dd className="col-span-2">{form.interests.join(', ')}</dd>
            </dl>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" checked={form.terms} onChange={set('terms')} className="mt-1" />
              <span>I agree to the Terms of Service and Privacy Policy.</span>
            </label>
            {errors.terms && <p className="text-xs text-rose-600">{errors.terms}</p>}
          </div>
        )}

        <div className="flex justify-between mt-8">
          <button type="button" onClick={back} disabled={step === 0} className="flex items-center gap-1 px-4 py-2 rounded-lg text-gray-600 hover:bg-gray-100 disabled:invisible">
            <ChevronLeft className="w-4 h-4" /> Back
          </button>
          <button type="submit" disabled={submitting} className="flex items-center gap-1 px-5 py-2 rounded-lg bg-blue-600 text-white font-semibold hover:bg-blue-700 disabled:opacity-60">
            {submitting && <Loader2 className="w-4 h-4 animate-spin" />}
            {step === STEPS.length - 1 ? (submitting ? 'Creating…' : 'Create account') : 'Continue'}
            {step < STEPS.length - 1 && <ChevronRight className="w-4 h-4" />}
          </button>
        </div>
      </form>
    </div>
  );
}
