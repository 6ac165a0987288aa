import type { LoginBody, RegisterBody } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/schemas/users';
import { type UseMutationResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { useLocation } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { claimDeviceData } from '@/lib/device-data';
import { currentUserQueryKey, login, readCurrentUser, register, signOutHere } from './api/auth-api';

export interface AuthContextValue {
  user: PublicUser | null;
  isLoading: boolean;
  error: Error | null;
  loginMutation: UseMutationResult<PublicUser, Error, LoginBody>;
  logoutMutation: UseMutationResult<void, Error, void>;
  registerMutation: UseMutationResult<PublicUser, Error, RegisterBody>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** "display name or username", as the welcome toast words it. */
export function nameOf(user: Pick<PublicUser, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();

  const {
    data: user,
    error,
    isLoading,
  } = useQuery({ queryKey: currentUserQueryKey, queryFn: readCurrentUser });

  // what the device keeps offline is one person's: another person's goes when someone else signs in
  const userId = user?.id;
  useEffect(() => {
    if (userId !== undefined) void claimDeviceData(userId);
  }, [userId]);

  const loginMutation = useMutation<PublicUser, Error, LoginBody>({
    mutationFn: login,
    onSuccess: (signedIn) => {
      queryClient.setQueryData(currentUserQueryKey, signedIn);
      toast({
        title: 'Login successful',
        description: `Welcome back, ${nameOf(signedIn)}!`,
        variant: 'success',
      });
    },
    onError: (err) => {
      toast({
        title: 'Login failed',
        description: errorMessage(err, 'Invalid username or password'),
        variant: 'destructive',
      });
    },
  });

  const registerMutation = useMutation<PublicUser, Error, RegisterBody>({
    mutationFn: register,
    onSuccess: (created) => {
      queryClient.setQueryData(currentUserQueryKey, created);
      toast({
        title: 'Registration successful',
        description: 'Your account has been created successfully',
        variant: 'success',
      });
    },
    onError: (err) => {
      toast({
        title: 'Registration failed',
        description: errorMessage(err, 'There was an error creating your account'),
        variant: 'destructive',
      });
    },
  });

  const logoutMutation = useMutation<void, Error, void>({
    // signed out: nothing of theirs stays on the device (kept reads, waiting changes)
    mutationFn: async () => {
      await signOutHere();
    },
    onSuccess: () => {
      queryClient.setQueryData(currentUserQueryKey, null);
      // everything else cached belonged to the previous user
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
      toast({ title: 'Logged out', description: 'You have been successfully logged out' });
      navigate('/');
    },
    onError: (err) => {
      console.error('Logout failed', err);
      toast({ title: 'Logout failed', description: err.message, variant: 'destructive' });
    },
  });

  return (
    <AuthContext.Provider
      value={{ user: user ?? null, isLoading, error, loginMutation, logoutMutation, registerMutation }}
    >
      {children}
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) {
    throw new Error('useAuth must be used within an AuthProvider');
  }
  return context;
}
